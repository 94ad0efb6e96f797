-- wrk(1) script: each request takes the next URL path of a list, so that
-- a run measures distinct queries rather than one answer served again
-- (which deepq-server's answer cache would serve without building the
-- page). bench/wrk-latency.sh writes the list from the profile's own
-- function ids.
--
--	wrk -s bench/wrk-distinct.lua http://HOST:PORT/ -- FILE [OFFSET [THREADS]]
--
-- FILE holds one path (with its query string) a line. The threads (give
-- wrk's -t as THREADS) take the lines in turn from line OFFSET on: thread
-- k the lines OFFSET + k, OFFSET + k + THREADS, ... So a run asks about
-- as many distinct URLs as it makes requests (until the list wraps), and
-- a later run given the requests made so far as OFFSET does not ask again
-- what an earlier one had cached.

local paths = {}
local i = 0
local step = 1
local nthreads = 0

function setup(thread)
	thread:set("id", nthreads)
	nthreads = nthreads + 1
end

function init(args)
	local file = args[1]
	if file == nil then
		error("usage: wrk -s wrk-distinct.lua URL -- FILE [OFFSET " ..
		    "[THREADS]]")
	end
	for line in io.lines(file) do
		if line ~= "" then
			paths[#paths + 1] = line
		end
	end
	if #paths == 0 then
		error(file .. ": no URL paths")
	end
	step = tonumber(args[3] or "1") or 1
	i = (tonumber(args[2] or "0") or 0) + (id or 0)
end

function request()
	local path = paths[i % #paths + 1]
	i = i + step
	return wrk.format(nil, path)
end
