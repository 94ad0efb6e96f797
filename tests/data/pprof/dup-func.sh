#!/bin/sh
# dup-func.sh: remake dup-func.pb, a pprof profile.proto (uncompressed)
# whose two functions share id 1 ("a" and "b"), one location naming
# function 1, one sample of 7 there. go tool pprof refuses it ("multiple
# functions with same id: 1"); a reader that kept the last one would
# give the sample to "b" unasked. Hand-encoded protobuf, field by field.
set -eu
cd "$(dirname "$0")"
{
	printf '\n\004\010\001\020\002'		# sample_type {type 1 unit 2}
	printf '\022\006\n\001\001\022\001\007'	# sample {location 1, value 7}
	printf '"\006\010\001"\002\010\001'	# location {id 1, line {fn 1}}
	printf '*\004\010\001\020\003'		# function {id 1, name "a"}
	printf '*\004\010\001\020\004'		# function {id 1, name "b"}
	printf '2\000'				# string_table: ""
	printf '2\007samples2\005count2\001a2\001b'
} >dup-func.pb
