-- Decides requests against token buckets. Each request is decided as a whole: when every enforced bucket
-- of the request holds its cost, each of its buckets that holds it gives it; otherwise none of them
-- changes. Several requests may come in one call (one after the other, as if sent one by one); the call
-- is atomic, and a bucket that several of them use is read and written once.
--
-- KEYS     the buckets of every request, request after request; a key may repeat. Each bucket is a hash
--          {t = when it was last written (ms), "1".."n" = level of bandwidth b}
-- ARGV[1]  'decide', or 'refund' (give each request's cost back to its buckets, capped at capacity)
-- ARGV[2]  the time in ms, or '' for the server's clock (TIME): one clock for every instance
-- ARGV[3]  the number of requests
-- then per request: its number of buckets, and per bucket: cost, enforced ('1' | '0'), number of
--   bandwidths n, and per bandwidth: capacity, refill tokens, refill period in ms
--
-- A level is counted in token-milliseconds (tokens x period): a bandwidth refills refill x elapsed of
-- them per elapsed ms, so refilling is exact integer arithmetic. Callers keep capacity x period below
-- 2^53, where Lua's doubles hold integers exactly.
--
-- Reply, per request: admitted (1 | 0), then per bucket: had the cost (1 | 0), and per bandwidth: tokens
-- left, ms until the cost was there (0 when it was, before this request), ms until the bucket is full,
-- ms until the bucket holds the cost again (0 while it does, after this request).
-- A refused request reports the levels it found; an admitted one the levels it left. Keys expire when
-- the bucket would be full again.

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

-- key -> { n = bandwidths, dirty = written?, [b] = level now }, read once and refilled to now
local buckets = {}
local shapes = {}

local function bucket(key, n, arg)
  local found = buckets[key]
  if found ~= nil then
    return found
  end
  local fields = { 't' }
  for b = 1, n do
    fields[b + 1] = tostring(b)
  end
  local stored = redis.call('HMGET', key, unpack(fields))
  local last = tonumber(stored[1])
  local elapsed = 0
  if last ~= nil and now > last then
    elapsed = now - last
  end
  found = { n = n, dirty = false }
  for b = 1, n do
    local a = arg + 3 * (b - 1)
    local capacity, refill, period = tonumber(ARGV[a]), tonumber(ARGV[a + 1]), tonumber(ARGV[a + 2])
    local full = capacity * period
    local level = tonumber(stored[b + 1])
    if last == nil or level == nil or elapsed * refill >= full - level then
      -- a new or expired bucket, or one that has refilled to the top
      level = full
    else
      level = level + elapsed * refill
    end
    found[b] = level
  end
  buckets[key] = found
  shapes[key] = arg
  return found
end

local reply = {}
local k = 1
local arg = 4
for r = 1, tonumber(ARGV[3]) do
  local count = tonumber(ARGV[arg])
  arg = arg + 1
  local checks = {}
  local admitted = true
  for i = 1, count do
    local cost, enforced, n = tonumber(ARGV[arg]), ARGV[arg + 1] == '1', tonumber(ARGV[arg + 2])
    local shape = arg + 3
    local state = bucket(KEYS[k], n, shape)
    local check = { state = state, has = true, shape = shape, n = n, need = {}, wait = {} }
    for b = 1, n do
      local a = shape + 3 * (b - 1)
      local refill, period = tonumber(ARGV[a + 1]), tonumber(ARGV[a + 2])
      local need = cost * period
      check.need[b] = need
      check.wait[b] = 0
      if state[b] < need then
        check.has = false
        check.wait[b] = ceildiv(need - state[b], refill)
      end
    end
    if enforced and not check.has then
      admitted = false
    end
    checks[i] = check
    k = k + 1
    arg = shape + 3 * n
  end
  reply[#reply + 1] = admitted and 1 or 0
  for i = 1, count do
    local check = checks[i]
    local state = check.state
    if refund or (admitted and check.has) then
      state.dirty = true
      for b = 1, check.n do
        local a = check.shape + 3 * (b - 1)
        if refund then
          state[b] = math.min(tonumber(ARGV[a]) * tonumber(ARGV[a + 2]), state[b] + check.need[b])
        else
          state[b] = state[b] - check.need[b]
        end
      end
    end
    reply[#reply + 1] = check.has and 1 or 0
    for b = 1, check.n do
      local a = check.shape + 3 * (b - 1)
      local refill, period = tonumber(ARGV[a + 1]), tonumber(ARGV[a + 2])
      reply[#reply + 1] = floordiv(state[b], period)
      reply[#reply + 1] = check.wait[b]
      reply[#reply + 1] = ceildiv(tonumber(ARGV[a]) * period - state[b], refill)
      if state[b] >= check.need[b] then
        reply[#reply + 1] = 0
      else
        reply[#reply + 1] = ceildiv(check.need[b] - state[b], refill)
      end
    end
  end
end

for key, state in pairs(buckets) do
  if state.dirty then
    local shape = shapes[key]
    local values = { 't', now }
    local untilFull = 1
    for b = 1, state.n do
      local a = shape + 3 * (b - 1)
      local capacity, refill, period = tonumber(ARGV[a]), tonumber(ARGV[a + 1]), tonumber(ARGV[a + 2])
      untilFull = math.max(untilFull, ceildiv(capacity * period - state[b], refill))
      values[#values + 1] = tostring(b)
      values[#values + 1] = state[b]
    end
    redis.call('HSET', key, unpack(values))
    redis.call('PEXPIRE', key, untilFull)
  end
end
return reply
