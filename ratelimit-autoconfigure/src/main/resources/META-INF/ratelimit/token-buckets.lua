-- Decides every token bucket of one request at once: when every enforced bucket holds the request's
-- cost, each bucket that holds it gives it; otherwise nothing changes anywhere. One call, atomic.
--
-- KEYS[i]  bucket i: a hash {t = when it was last written (ms), "1".."n" = level of bandwidth b}
-- ARGV[1]  'decide', or 'refund' (give the cost back to every bucket, capped at capacity)
-- ARGV[2]  the time in ms, or '' for the server's clock (TIME): one clock for every instance
-- then per bucket: cost, enforced ('1' | '0'), number of bandwidths n,
--   and per bandwidth: capacity, refill tokens, refill period in ms
--
-- A level is counted in token-milliseconds (tokens x period): a bandwidth refills refill x elapsed of
-- them per elapsed ms, so refilling is exact integer arithmetic. Callers keep capacity x period below
-- 2^53, where Lua's doubles hold integers exactly.
--
-- Reply: admitted (1 | 0), then per bucket: has the cost (1 | 0), and per bandwidth: tokens left,
-- ms until the cost was there (0 when it was, before this request), ms until the bucket is full. A refused request reports the
-- levels it found; an admitted one the levels it left. Keys expire when the bucket would be full again.

local function floordiv(a, b)
  local q = math.floor(a / b)
  if q * b > a then
    q = q - 1
  elseif (q + 1) * b <= a then
    q = q + 1
  end
  return q
end

local function ceildiv(a, b)
  local q = floordiv(a, b)
  if q * b < a then
    q = q + 1
  end
  return q
end

local refund = ARGV[1] == 'refund'
local now = tonumber(ARGV[2])
if now == nil then
  local time = redis.call('TIME')
  now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
end

local buckets = {}
local admitted = true
local arg = 3
for i = 1, #KEYS do
  local cost = tonumber(ARGV[arg])
  local bucket = { cost = cost, enforced = ARGV[arg + 1] == '1', has = true, n = tonumber(ARGV[arg + 2]) }
  arg = arg + 3
  local fields = { 't' }
  for b = 1, bucket.n do
    fields[b + 1] = tostring(b)
  end
  local stored = redis.call('HMGET', KEYS[i], unpack(fields))
  local last = tonumber(stored[1])
  local elapsed = 0
  if last ~= nil and now > last then
    elapsed = now - last
  end
  for b = 1, bucket.n do
    local capacity, refill, period = tonumber(ARGV[arg]), tonumber(ARGV[arg + 1]), tonumber(ARGV[arg + 2])
    arg = arg + 3
    local full = capacity * period
    local level = tonumber(stored[b + 1])
    if last == nil or level == nil or elapsed * refill >= full - level then
      -- a new or expired bucket, or one that has refilled to the top
      level = full
    else
      level = level + elapsed * refill
    end
    local need = cost * period
    local wait = 0
    if level < need then
      bucket.has = false
      wait = ceildiv(need - level, refill)
    end
    bucket[b] = { level = level, need = need, wait = wait, full = full, refill = refill, period = period }
  end
  if bucket.enforced and not bucket.has then
    admitted = false
  end
  buckets[i] = bucket
end

local reply = { admitted and 1 or 0 }
for i, bucket in ipairs(buckets) do
  local write = false
  if refund then
    write = true
    for b = 1, bucket.n do
      local bandwidth = bucket[b]
      bandwidth.level = math.min(bandwidth.full, bandwidth.level + bandwidth.need)
    end
  elseif admitted and bucket.has then
    write = true
    for b = 1, bucket.n do
      local bandwidth = bucket[b]
      bandwidth.level = bandwidth.level - bandwidth.need
    end
  end
  reply[#reply + 1] = bucket.has and 1 or 0
  local untilFull = 1
  local values = { 't', now }
  for b = 1, bucket.n do
    local bandwidth = bucket[b]
    local toFull = ceildiv(bandwidth.full - bandwidth.level, bandwidth.refill)
    reply[#reply + 1] = floordiv(bandwidth.level, bandwidth.period)
    reply[#reply + 1] = bandwidth.wait
    reply[#reply + 1] = toFull
    untilFull = math.max(untilFull, toFull)
    values[#values + 1] = tostring(b)
    values[#values + 1] = bandwidth.level
  end
  if write then
    redis.call('HSET', KEYS[i], unpack(values))
    redis.call('PEXPIRE', KEYS[i], untilFull)
  end
end
return reply
