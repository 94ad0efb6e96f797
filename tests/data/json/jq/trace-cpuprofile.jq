# The CPU profiles of a trace's Profile/ProfileChunk events (one per pid
# and id, chunks concatenated in file order), totalled as the V8 reader
# counts a .cpuprofile: the samples, and the time from the first sample
# to the later of endTime and the last timestamp, timestamps being
# startTime plus the running sum of timeDeltas, never going back.
# Prints "SAMPLES TIME".
(if type == "array" then . else .traceEvents end)
| [.[] | select(.name == "Profile" or .name == "ProfileChunk")]
| group_by([.pid, .id]) | map(
    ([.[] | .args.data.startTime // empty] | last) as $start
    | ([.[] | .args.data.endTime // empty] | last) as $stop
    | [.[] | .args.data.timeDeltas // [] | .[]] as $d
    | [.[] | .args.data.cpuProfile.samples // [] | .[]] as $s
    | (reduce $d[] as $x ({raw: $start, t: null, first: null};
        .raw += $x
        | .t = (if .t == null or .raw > .t then .raw else .t end)
        | .first = (.first // .t))) as $r
    | {n: ($s | length),
       t: (if ($s | length) == 0 then 0
           else ([$r.t, ($stop // $r.t)] | max) - $r.first end)})
| "\(map(.n) | add) \(map(.t) | add)"
