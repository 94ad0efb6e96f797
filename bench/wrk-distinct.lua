-- wrk(1) script: each request takes the next URL path of a list, so that
-- a run measures distinct queries rather than one answer served again
-- (which deepq-server's answer cache would serve without building the
-- page). bench/wrk-latency.sh writes the list from the profile's own
-- function ids.
--
--	wrk -s bench/wrk-distinct.lua http://HOST:PORT/ -- FILE [OFFSET]
--
-- FILE holds one path (with its query string) a line. The first thread
-- starts at line OFFSET (default 0: a later run passes the requests made
-- so far, so that it does not ask again what an earlier run had cached);
-- each other thread a golden section further on, so that the threads do
-- not ask in step.

local paths = {}
local i = 0
local nthreads = 0

function setup(thread)
	thread:set("id", nthreads)
	nthreads = nthreads + 1
end

function init(args)
	local file = args[1]
	if file == nil then
		error("usage: wrk -s wrk-distinct.lua URL -- FILE")
	end
	for line in io.lines(file) do
		if line ~= "" then
			paths[#paths + 1] = line
		end
	end
	if #paths == 0 then
		error(file .. ": no URL paths")
	end
	local offset = tonumber(args[2] or "0") or 0
	i = math.floor(offset + (id or 0) * 0.618034 * #paths) % #paths
end

function request()
	i = i % #paths + 1
	return wrk.format(nil, paths[i])
end
