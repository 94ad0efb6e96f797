# Samples with a stack in every thread of a processed profile (the
# Firefox Profiler's call tree total; weights when a thread has them).
[.threads[] | .samples as $s | range(0; $s.stack | length) as $i
 | select($s.stack[$i] != null) | if $s.weight then $s.weight[$i] else 1 end]
| add
