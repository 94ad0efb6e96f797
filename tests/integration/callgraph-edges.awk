# callgraph-edges.awk: the call edges of a callgrind file, read
# independently of deepq's reader for callgraph.sh: one line per
# (caller, its object, callee, its object) with the calls and the
# inclusive cost in the first event, from the calls= lines and the cost
# line after each. Name compression: "(id) name" defines an id, "(id)"
# uses it; ob/cob share ids, fl/fi/fe/cfi/cfl/jfi share ids, fn/cfn/jfn
# share ids. A callee's object is its cob=, else the caller's ob=.
function nm(kind, s,    id, rest) {
	if (match(s, /^\([0-9]+\)/)) {
		id = substr(s, 2, RLENGTH - 2)
		rest = substr(s, RLENGTH + 1)
		sub(/^[ \t]+/, "", rest)
		if (rest != "")
			names[kind, id] = rest
		return names[kind, id]
	}
	return s
}
BEGIN { npos = 1; pending = "" }
/^positions:/ { npos = NF - 1; next }
/^ob=/ { ob = nm("ob", substr($0, 4)); next }
/^cob=/ { cob = nm("ob", substr($0, 5)); next }
/^(fl|fi|fe)=/ { nm("fl", substr($0, 4)); next }
/^(cfi|cfl|jfi)=/ { nm("fl", substr($0, 5)); next }
/^fn=/ { fn = nm("fn", substr($0, 4)); fob = ob; next }
/^cfn=/ { cfn = nm("fn", substr($0, 5)); cobj = cob != "" ? cob : ob
	cob = ""; next }
/^jfn=/ { nm("fn", substr($0, 5)); next }
/^calls=/ { split(substr($0, 7), c, " "); pending = c[1]; next }
pending != "" && /^[0-9+*-]/ {
	ir = $(npos + 1)
	if (ir == "")
		ir = 0
	k = fn "\t" fob "\t" cfn "\t" cobj
	n[k] += pending
	s[k] += ir
	pending = ""
	next
}
END { for (k in n) printf "%s\t%d\t%.0f\n", k, n[k], s[k] }
