# check.jq: a speedscope file against the schema's required fields and
# enums (jq --slurpfile schema file-format-schema.json -f check.jq FILE).
# Prints one line per problem; nothing if the file is sound. Also checks
# what the schema cannot say: frame indices in range, samples and weights
# of one length, events at non-decreasing times that close what they
# opened, innermost first. file-format-schema.json is speedscope 1.25.0's
# (MIT licence), copied from its npm package's dist/release.
def missing($name): . as $o
  | [$schema[0].definitions[$name].required[] | select(. as $k | $o | has($k) | not)];
def frame_ok($nf): type == "number" and . >= 0 and . < $nf and floor == .;
($schema[0].definitions) as $d
| . as $f
| ($f.shared.frames | length) as $nf
| [ (missing("FileFormat.File")[] | "file: no \(.)"),
    (if $f["$schema"] != $d["FileFormat.File"].properties["$schema"].const
     then "file: $schema is \($f["$schema"])" else empty end),
    ($f.shared.frames | to_entries[] | .key as $i | .value
     | missing("FileFormat.Frame")[] | "frame \($i): no \(.)"),
    ($f.profiles | to_entries[] | .key as $i | .value as $p
     | if ($d["FileFormat.ProfileType"].enum | index($p.type)) == null
       then "profile \($i): type \($p.type)"
       elif $p.type == "sampled" then
         (($p | missing("FileFormat.SampledProfile"))[] | "profile \($i): no \(.)"),
         (if ($p.samples | length) != ($p.weights | length)
          then "profile \($i): \($p.samples | length) samples, \($p.weights | length) weights"
          else empty end),
         ($p.samples[] | select(all(.[]; frame_ok($nf)) | not) | "profile \($i): a frame out of range")
       else
         (($p | missing("FileFormat.EventedProfile"))[] | "profile \($i): no \(.)"),
         (reduce $p.events[] as $e ({stack: [], at: $p.startValue, bad: []};
            if ($e.frame | frame_ok($nf) | not) then .bad += ["a frame out of range"]
            elif $e.at < .at then .bad += ["time going back at \($e.at)"]
            elif $e.type == "O" then .stack += [$e.frame] | .at = $e.at
            elif $e.type == "C" and (.stack | length) > 0 and .stack[-1] == $e.frame
            then .stack |= .[:-1] | .at = $e.at
            else .bad += ["close of frame \($e.frame) not open on top"] end)
          | (.bad[]), (if (.stack | length) > 0 then "frames left open" else empty end)
          | "profile \($i): \(.)")
       end,
       (if ($d["FileFormat.ValueUnit"].enum | index($p.unit)) == null
        then "profile \($i): unit \($p.unit)" else empty end))
  ] | .[]
