-- Decides requests against the items of their limits: token buckets, calendar quotas and concurrency
-- caps. Each request is decided as a whole: when every enforced bucket of the request holds its cost,
-- each of its buckets that holds it gives it; otherwise none of them changes. Several requests may come
-- in one call (one after the other, as if sent one by one); the call is atomic, and a bucket that several
-- of them use is read and written once.
--
-- KEYS     'decide', 'refund': the buckets of every request, request after request (a key may repeat);
--          'release', 'renew': the bucket of each lease
-- ARGV[1]  'decide'; 'refund' (give each request's cost back: token buckets capped at capacity, quota
--          counts of the same period, permits held by the request's lease id); 'release' (give leased
--          permits back); 'renew' (extend leased permits by the lease time)
-- ARGV[2]  the time in ms, or '' for the server's clock (TIME): one clock for every instance
-- ARGV[3]  the lease time of a permit in ms
-- ARGV[4]  the number of requests ('decide', 'refund') or of leases ('release', 'renew')
-- 'decide', 'refund', per request: its lease id ('' when it takes no permit), its number of buckets, and
--   per bucket: cost, enforced ('1' | '0'), max wait in ms, number of items n, and per item its kind and
--   numbers:
--     'b' capacity, refill tokens, refill period in ms                   a token bucket
--     'q' quota, start, end, next end of the period, in ms               a calendar quota
--     'c' permits, retry in ms                                           a concurrency cap
-- 'release', 'renew', per lease: lease id, permits of the bucket's concurrency cap
-- A check of cost 0 takes nothing, not even a permit: it reads the state of its bucket.
--
-- A bucket is a hash: t = when it was last written (ms); "b" = level of token bucket item b, or count
-- used of quota item b; "eb" = end of the period quota item b counts; "p1".."pN" = the permits of the
-- cap, '<expiry ms>:<lease id>' while leased.
--
-- Token buckets: a level is counted in token-milliseconds (tokens x period): a bandwidth refills refill x
-- elapsed of them per elapsed ms, so refilling is exact integer arithmetic. Callers keep capacity x
-- period below 2^53, where Lua's doubles hold integers exactly. An enforced bucket with a max wait may
-- take a cost that refills within it: the level goes below zero (debt) and the request waits.
-- Quotas: the caller sends the period that holds its own time and the next; this script picks by its
-- own time, so every instance resets at the server's boundary: before start it is still the previous
-- period (ending at start), from end on the next (ending at next end). A caller more than a period behind
-- counts in the period it named last, reported as a period's length away.
-- Permits: one per request whatever its cost, leased for the lease time unless renewed, so a crashed
-- instance leaks none for long. They never wait.
--
-- Reply to 'decide', 'refund', per request: admitted (1 | 0), ms to wait (the longest debt its enforced
-- buckets took; 0 when refused), then per bucket: had the cost (1 | 0), and per item: tokens left
-- (free permits), ms until the cost was there (0 when it was, before this request), ms until the
-- bucket is full (0 when it is), ms until the bucket holds the cost again (0 while it does, after this
-- request). A refused request reports the state it found; an admitted one the state it left.
-- Reply to 'release', 'renew', per lease: 1 when it held a permit, 0 when that was gone.
-- Keys expire when every item is back to full and no permit is leased.

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

local mode = ARGV[1]
local now = tonumber(ARGV[2])
if now == nil then
  local time = redis.call('TIME')
  now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
end
local lease = tonumber(ARGV[3])
local count = tonumber(ARGV[4])

-- '<expiry>:<id>' of a permit leased by id until now + lease ('..' alone would print 1.7e+12)
local function leased(id)
  return string.format('%.0f', now + lease) .. ':' .. id
end

-- the expiry and lease id of a permit's value
local function parse(value)
  local at = string.find(value, ':', 1, true)
  return tonumber(string.sub(value, 1, at - 1)), string.sub(value, at + 1)
end

local function permitFields(permits)
  local fields = {}
  for p = 1, permits do
    fields[p] = 'p' .. p
  end
  return fields
end

if mode == 'release' or mode == 'renew' then
  local reply = {}
  local arg = 5
  for i = 1, count do
    local key, id, permits = KEYS[i], ARGV[arg], tonumber(ARGV[arg + 1])
    arg = arg + 2
    local fields = permitFields(permits)
    local values = redis.call('HMGET', key, unpack(fields))
    reply[i] = 0
    for p = 1, permits do
      -- a lapsed lease still in its slot is ours: nobody else took the permit
      if values[p] and select(2, parse(values[p])) == id then
        reply[i] = 1
        if mode == 'release' then
          redis.call('HDEL', key, fields[p])
        else
          redis.call('HSET', key, fields[p], leased(id))
          if redis.call('PTTL', key) < lease then
            redis.call('PEXPIRE', key, lease)
          end
        end
        break
      end
    end
  end
  return reply
end

local refund = mode == 'refund'

-- the items of a bucket, from ARGV[arg]; a quota gets its period (id = its end) and the ms until its end
local function items(arg, n)
  local list = {}
  for b = 1, n do
    local kind = ARGV[arg]
    if kind == 'b' then
      local capacity, refill, period = tonumber(ARGV[arg + 1]), tonumber(ARGV[arg + 2]), tonumber(ARGV[arg + 3])
      list[b] = { kind = 'b', refill = refill, period = period, full = capacity * period }
      arg = arg + 4
    elseif kind == 'q' then
      local start, finish, nextEnd = tonumber(ARGV[arg + 2]), tonumber(ARGV[arg + 3]), tonumber(ARGV[arg + 4])
      local id = nextEnd
      if now < start then
        id = start
      elseif now < finish then
        id = finish
      end
      local left = id - now
      if left <= 0 then
        left = nextEnd - finish
      end
      list[b] = { kind = 'q', quota = tonumber(ARGV[arg + 1]), id = id, left = left }
      arg = arg + 5
    elseif kind == 'c' then
      list[b] = { kind = 'c', permits = tonumber(ARGV[arg + 1]), retry = tonumber(ARGV[arg + 2]) }
      arg = arg + 3
    else
      error('unknown item kind ' .. tostring(kind))
    end
  end
  return list, arg
end

-- key -> { items, dirty = written?, value[b] = level or count now, and for a cap: owner[p] = lease id
-- or false when free, expiry[p], free, changed[p] }, read once and brought to now
local buckets = {}

local function bucket(key, list)
  local found = buckets[key]
  if found ~= nil then
    return found
  end
  local fields = { 't' }
  for b, item in ipairs(list) do
    if item.kind == 'c' then
      for p = 1, item.permits do
        fields[#fields + 1] = 'p' .. p
      end
    else
      fields[#fields + 1] = tostring(b)
      if item.kind == 'q' then
        fields[#fields + 1] = 'e' .. b
      end
    end
  end
  local stored = redis.call('HMGET', key, unpack(fields))
  local last = tonumber(stored[1])
  local elapsed = 0
  if last ~= nil and now > last then
    elapsed = now - last
  end
  found = { items = list, dirty = false, value = {} }
  local f = 2
  for b, item in ipairs(list) do
    if item.kind == 'b' then
      local level = tonumber(stored[f])
      f = f + 1
      if last == nil or level == nil or elapsed * item.refill >= item.full - level then
        -- a new or expired bucket, or one that has refilled to the top
        level = item.full
      else
        level = level + elapsed * item.refill
      end
      found.value[b] = level
    elseif item.kind == 'q' then
      local used, id = tonumber(stored[f]), tonumber(stored[f + 1])
      f = f + 2
      if used == nil or id ~= item.id then
        -- the count of another period: this one is untouched
        used = 0
      end
      found.value[b] = used
    else
      found.owner, found.expiry, found.changed, found.free = {}, {}, {}, 0
      for p = 1, item.permits do
        local expiry, owner = false, false
        if stored[f] then
          expiry, owner = parse(stored[f])
        end
        f = f + 1
        if owner and expiry > now then
          found.owner[p], found.expiry[p] = owner, expiry
        else
          found.owner[p], found.expiry[p] = false, 0
          found.free = found.free + 1
        end
      end
    end
  end
  buckets[key] = found
  return found
end

local function take(state, item, id)
  for p = 1, item.permits do
    if not state.owner[p] then
      state.owner[p], state.expiry[p], state.changed[p] = id, now + lease, true
      state.free = state.free - 1
      return
    end
  end
end

local function giveBack(state, item, id)
  for p = 1, item.permits do
    if state.owner[p] == id then
      state.owner[p], state.expiry[p], state.changed[p] = false, 0, true
      state.free = state.free + 1
      return
    end
  end
end

local reply = {}
local k = 1
local arg = 5
for r = 1, count do
  local id, size = ARGV[arg], tonumber(ARGV[arg + 1])
  arg = arg + 2
  local checks = {}
  local admitted = true
  local wait = 0
  for i = 1, size do
    local cost, enforced, maxWait, n = tonumber(ARGV[arg]), ARGV[arg + 1] == '1', tonumber(ARGV[arg + 2]),
      tonumber(ARGV[arg + 3])
    local list
    list, arg = items(arg + 4, n)
    local state = bucket(KEYS[k], list)
    k = k + 1
    local check = { state = state, cost = cost, has = true, short = {} }
    for b, item in ipairs(list) do
      local short = 0
      if item.kind == 'b' then
        local need = cost * item.period
        if state.value[b] < need then
          short = ceildiv(need - state.value[b], item.refill)
          if enforced and short <= maxWait then
            -- refills within the wait: taken now as debt, the request waits for it
            wait = math.max(wait, short)
          else
            check.has = false
          end
        end
      elseif item.kind == 'q' then
        if item.quota - state.value[b] < cost then
          short = item.left
          check.has = false
        end
      elseif state.free < 1 then
        short = item.retry
        check.has = false
      end
      check.short[b] = short
    end
    if enforced and not check.has then
      admitted = false
    end
    checks[i] = check
  end
  reply[#reply + 1] = admitted and 1 or 0
  reply[#reply + 1] = admitted and wait or 0
  for i = 1, size do
    local check = checks[i]
    local state = check.state
    local cost = check.cost
    -- a check of cost 0 reads its bucket and takes nothing (operators' inspection)
    local taking = not refund and admitted and check.has and cost > 0
    if refund or taking then
      state.dirty = true
    end
    reply[#reply + 1] = check.has and 1 or 0
    for b, item in ipairs(state.items) do
      if item.kind == 'b' then
        local need = cost * item.period
        local level = state.value[b]
        if refund then
          level = math.min(item.full, level + need)
        elseif taking then
          level = level - need
        end
        state.value[b] = level
        reply[#reply + 1] = math.max(0, floordiv(level, item.period))
        reply[#reply + 1] = check.short[b]
        reply[#reply + 1] = ceildiv(item.full - level, item.refill)
        if level >= need then
          reply[#reply + 1] = 0
        else
          reply[#reply + 1] = ceildiv(need - level, item.refill)
        end
      elseif item.kind == 'q' then
        local used = state.value[b]
        if refund then
          used = math.max(0, used - cost)
        elseif taking then
          used = used + cost
        end
        state.value[b] = used
        reply[#reply + 1] = math.max(0, item.quota - used)
        reply[#reply + 1] = check.short[b]
        reply[#reply + 1] = (used > 0) and item.left or 0
        reply[#reply + 1] = (item.quota - used < cost) and item.left or 0
      else
        if refund then
          giveBack(state, item, id)
        elseif taking then
          take(state, item, id)
        end
        reply[#reply + 1] = state.free
        reply[#reply + 1] = check.short[b]
        reply[#reply + 1] = (state.free < item.permits) and item.retry or 0
        reply[#reply + 1] = (state.free < 1) and item.retry or 0
      end
    end
  end
end

for key, state in pairs(buckets) do
  if state.dirty then
    local values = { 't', now }
    local freed = {}
    local ttl = 1
    for b, item in ipairs(state.items) do
      if item.kind == 'b' then
        values[#values + 1] = tostring(b)
        values[#values + 1] = state.value[b]
        ttl = math.max(ttl, ceildiv(item.full - state.value[b], item.refill))
      elseif item.kind == 'q' then
        values[#values + 1] = tostring(b)
        values[#values + 1] = state.value[b]
        values[#values + 1] = 'e' .. b
        values[#values + 1] = item.id
        if state.value[b] > 0 then
          ttl = math.max(ttl, item.left)
        end
      else
        for p in pairs(state.changed) do
          if state.owner[p] then
            values[#values + 1] = 'p' .. p
            values[#values + 1] = leased(state.owner[p])
          else
            freed[#freed + 1] = 'p' .. p
          end
        end
        for p = 1, item.permits do
          if state.owner[p] then
            ttl = math.max(ttl, state.expiry[p] - now)
          end
        end
      end
    end
    redis.call('HSET', key, unpack(values))
    if #freed > 0 then
      redis.call('HDEL', key, unpack(freed))
    end
    redis.call('PEXPIRE', key, ttl)
  end
end
return reply
