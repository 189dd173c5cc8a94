-- SPDX-License-Identifier: MIT
-- wrk script: GET the paths of a file (one per line), each connection
-- starting at its own place and going round. Usage:
--   wrk -s bench/serve.lua URL -- PATHS_FILE
local paths = {}
local i = 0

function init(args)
  for line in io.lines(args[1]) do
    paths[#paths + 1] = line
  end
  i = math.random(#paths)
end

function request()
  i = i % #paths + 1
  return wrk.format("GET", paths[i])
end
