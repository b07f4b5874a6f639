-- The closed-loop load of `sympathy run map-service` (crates/cli/src/run/map_service/), for
-- wrk: GET /users/{id} of random ids, each answer's status and body checked, at most
-- WRK_REQUESTS answers in all (each thread stops at its share), then one JSON line on stdout
-- with the totals.
--
--   WRK_MODE=hit|miss  hit: ids 0..WRK_USERS-1, each must answer 200 and a user's JSON;
--                      miss: ids WRK_USERS.., each must answer 404 and the not-found error
--
-- wrk does not say which request an answer belongs to, so a body is checked for its shape:
-- a hit's is a JSON object beginning with the user's "id" field, a miss's is
-- {"error":"user N not found"}. The open-loop generator (open_loop.rs) compares every body
-- byte for byte.
--   WRK_USERS=N        users in the served map
--   WRK_REQUESTS=R     answers to wait for, over all threads
--   WRK_SEED=S         the ids' random seed
--
-- A thread that has its share of answers stops and raises SIGINT (LuaJIT's FFI), which ends
-- wrk's wait for --duration at once: the run lasts as long as its answers took, and wrk's
-- summary times exactly that. Run it with one thread (-t1), as the harness does.
--
-- The paths are made once, in init (a pool of 65536 requests per thread): request() only hands
-- the next one out, so the generator's own cost per request stays small.

local ffi = require("ffi")
ffi.cdef[[
int kill(int pid, int sig);
int getpid(void);
]]

local threads = {}

function setup(thread)
  thread:set("id", #threads)
  table.insert(threads, thread)
end

-- answered and bad are globals: done() reads them from each thread with thread:get.
local mode, users, limit, pool, next_index
local POOL = 65536

function init(args)
  mode = os.getenv("WRK_MODE") or "hit"
  users = tonumber(os.getenv("WRK_USERS") or "1")
  local total = tonumber(os.getenv("WRK_REQUESTS") or "1000000")
  local count = #threads > 0 and #threads or 1
  limit = math.ceil(total / count)
  math.randomseed(tonumber(os.getenv("WRK_SEED") or "1") + 7919 * (id or 0))
  pool = {}
  for i = 1, POOL do
    local key
    if mode == "miss" then
      key = users + math.random(0, 999999)
    else
      key = math.random(0, users - 1)
    end
    pool[i] = wrk.format("GET", string.format("/users/%d", key))
  end
  next_index = 0
  answered = 0
  bad = 0
end

function request()
  next_index = next_index + 1
  if next_index > POOL then
    next_index = 1
  end
  return pool[next_index]
end

function response(status, headers, body)
  answered = answered + 1
  if mode == "hit" then
    if status ~= 200 or not string.find(body, '^{"id":%d+,"name":".*}$') then
      bad = bad + 1
    end
  elseif status ~= 404 or not string.find(body, '^{"error":"user %d+ not found"}$') then
    bad = bad + 1
  end
  if answered == limit then
    wrk.thread:stop()
    ffi.C.kill(ffi.C.getpid(), 2) -- SIGINT: wrk's main thread stops waiting
  end
end

function done(summary, latency, requests)
  local wrong = 0
  local counted = 0
  for _, thread in ipairs(threads) do
    wrong = wrong + (thread:get("bad") or 0)
    counted = counted + (thread:get("answered") or 0)
  end
  local e = summary.errors
  io.write(string.format(
    '{"requests":%d,"answered":%d,"duration_us":%d,"bad_answers":%d,"socket_errors":%d}\n',
    summary.requests, counted, summary.duration, wrong,
    e.connect + e.read + e.write + e.timeout))
end
