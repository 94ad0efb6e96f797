# Samples with a stack in every thread of a Gecko profile, its child
# processes' too (the Firefox Profiler's call tree total). Before 2017
# threads, and child processes' whole profiles, were JSON strings.
def threads: (.threads[]? | if type == "string" then fromjson else . end
        | if has("threads") then threads else . end),
    (.processes[]? | threads);
[threads | .samples.schema.stack as $c
 | .samples.data[] | select(.[$c] != null)] | length
