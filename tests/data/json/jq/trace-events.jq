# The duration events of a trace as slices per thread (X with dur, B/E
# paired in time order, a B never closed ending at its thread's last
# time), then per thread the length of the union of its slices: what a
# flame chart of the thread covers. Prints "TIME SLICES".
(if type == "array" then . else .traceEvents end)
| [.[] | select(.ph == "B" or .ph == "E" or .ph == "X")]
| to_entries | map(.value + {i: .key})
| group_by([.pid, .tid]) | map(
    sort_by([.ts, .i]) as $ev
    | ([$ev[] | .ts + (.dur // 0)] | max) as $last
    | (reduce $ev[] as $e ({open: [], out: []};
        if $e.ph == "X" then .out += [[$e.ts, $e.ts + ($e.dur // 0)]]
        elif $e.ph == "B" then .open += [$e.ts]
        elif (.open | length) > 0 then
            .out += [[.open[-1], $e.ts]] | .open |= .[:-1]
        else . end)) as $r
    | ($r.out + [$r.open[] | [., $last]]) as $sl
    | {n: ($sl | length), t: (reduce ($sl | sort)[] as $s ({end: null, t: 0};
        if .end == null or $s[0] >= .end then
            .t += ($s[1] - $s[0]) | .end = $s[1]
        elif $s[1] > .end then .t += ($s[1] - .end) | .end = $s[1]
        else . end) | .t)})
| "\(map(.t) | add) \(map(.n) | add)"
