# What speedscope shows for each profile of a file: a sampled profile's
# total is the sum of its weights (speedscope skips weights of 0), an
# evented one's the span from startValue to the later of endValue and
# its last event. Prints the sum over the profiles.
[.profiles[] | if .type == "sampled" then ([.weights[] | select(. > 0)] | add // 0)
    else ([.endValue, (.events | map(.at) | max // .endValue)] | max) - .startValue
    end] | add
