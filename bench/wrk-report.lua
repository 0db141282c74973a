-- wrk script of bench/run.sh: one request shape, and one machine-readable line at the end.
--
-- env WRK_METHOD        GET (default) or POST (sent with an empty body, Content-Length: 0)
-- env WRK_ADDRESSES     0 (default): no X-Forwarded-For, every request from loopback itself.
--                       1: every request with the same X-Forwarded-For (one client, one hot key).
--                       N > 1: X-Forwarded-For rotates over N addresses, one per request (N clients,
--                       N keys); the N requests are built once per thread, so wrk only picks one per
--                       request. Addresses come from 198.18.0.0/15 (RFC 2544's benchmarking range):
--                       198.18.0.1, 198.18.0.2 ... 198.18.0.250, 198.18.1.1 ... (header values only:
--                       every connection goes to the URL given to wrk)
-- env WRK_COUNT_STATUS  1: count the responses by status (200, 429, other). This defines wrk's
--                       response() callback, which makes wrk copy every response's headers and body
--                       into Lua; bench/run.sh turns it on for the warm-ups only, so the measured runs
--                       pay nothing for it (they still report the count of statuses >= 400).
--
-- Last line printed:
-- WRK_RESULT requests=N duration_us=N rps=X p50_us=N p90_us=N p99_us=N max_us=N status_errors=N
--            socket_errors=N counted=0|1 s200=N s429=N sother=N

local method = os.getenv("WRK_METHOD") or "GET"
wrk.method = method
if method == "POST" then
  wrk.body = ""
end

local addresses = tonumber(os.getenv("WRK_ADDRESSES") or "0") or 0

local function address(i) -- i from 0
  return string.format("198.18.%d.%d", math.floor(i / 250) % 256, i % 250 + 1)
end

if addresses == 1 then
  wrk.headers["X-Forwarded-For"] = address(0)
end

local counting = os.getenv("WRK_COUNT_STATUS") == "1"
local threads = {}

function setup(thread)
  table.insert(threads, thread)
  thread:set("thread_number", #threads)
end

local prepared = {}
local next_request = 0

function init(args)
  s200 = 0
  s429 = 0
  sother = 0
  if addresses > 1 then
    -- wrk.headers has its Host by now; each thread starts at its own place in the rotation
    for i = 0, addresses - 1 do
      local headers = {}
      for name, value in pairs(wrk.headers) do
        headers[name] = value
      end
      headers["X-Forwarded-For"] = address(i)
      prepared[i + 1] = wrk.format(nil, nil, headers, wrk.body)
    end
    -- (a golden-ratio step, so any number of threads spreads over the addresses)
    next_request = math.floor(((thread_number or 1) - 1) * addresses * 0.618) % addresses
  end
end

if addresses > 1 then
  -- defining request() makes wrk ask for each request: the prepared one of the next address
  function request()
    next_request = next_request % addresses + 1
    return prepared[next_request]
  end
end

if counting then
  function response(status, headers, body)
    if status == 200 then
      s200 = s200 + 1
    elseif status == 429 then
      s429 = s429 + 1
    else
      sother = sother + 1
    end
  end
end

function done(summary, latency, requests)
  local c200, c429, cother = 0, 0, 0
  if counting then
    for _, thread in ipairs(threads) do
      c200 = c200 + (thread:get("s200") or 0)
      c429 = c429 + (thread:get("s429") or 0)
      cother = cother + (thread:get("sother") or 0)
    end
  end
  local errors = summary.errors
  local seconds = summary.duration / 1000000
  io.write(string.format(
    "WRK_RESULT requests=%d duration_us=%d rps=%.1f p50_us=%d p90_us=%d p99_us=%d max_us=%d " ..
    "status_errors=%d socket_errors=%d counted=%d s200=%d s429=%d sother=%d\n",
    summary.requests, summary.duration, summary.requests / seconds,
    latency:percentile(50), latency:percentile(90), latency:percentile(99), latency.max,
    errors.status, errors.connect + errors.read + errors.write + errors.timeout,
    counting and 1 or 0, c200, c429, cother))
end
