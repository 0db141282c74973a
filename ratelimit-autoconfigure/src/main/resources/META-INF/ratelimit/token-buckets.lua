-- Decides requests against the items of their limits: token buckets, calendar quotas and fixed windows,
-- sliding windows, leaky buckets and concurrency caps. Each request is decided as a whole: when every
-- enforced bucket of the request holds its cost, each of its buckets that holds it gives it; otherwise
-- none of them changes. Several requests may come in one call (one after the other, as if sent one by
-- one); the call is atomic, and a bucket that several of them use is read and written once.
--
-- KEYS     'decide', 'refund': the buckets of every request, request after request (a key may repeat);
--          'release', 'renew': the bucket of each lease
-- ARGV[1]  'decide'; 'refund' (give each request's cost back: token buckets capped at capacity, quota
--          counts of the same period, sliding window counts of the current window, leaky backlogs never
--          below zero, permits held by the request's lease id); 'release' (give leased
--          permits back); 'renew' (extend leased permits by the lease time)
-- ARGV[2]  the time in ms, or '' for the server's clock (TIME): one clock for every instance (a time
--          given here need not advance with the server's, which expires keys: they then live at least
--          PINNED_TTL ms, lest a state expire while that clock stands still)
-- ARGV[3]  the lease time of a permit in ms
-- ARGV[4]  the number of requests ('decide', 'refund') or of leases ('release', 'renew')
-- 'decide', 'refund', per request: its lease id ('' when it takes no permit), its number of buckets, and
--   per bucket: cost, enforced ('1' | '0'), max wait in ms, number of items n, and per item its kind and
--   numbers:
--     'b' capacity, refill tokens, refill period in ms                   a token bucket
--     'q' quota, start, end, next end of the period, in ms               a calendar quota
--     'w' quota, period in ms                                            a fixed window
--     's' quota, period in ms                                            a sliding window
--     'l' rate, period in ms                                             a leaky bucket
--     'c' permits, retry in ms                                           a concurrency cap
-- 'release', 'renew', per lease: lease id, permits of the bucket's concurrency cap
-- A check of cost 0 takes nothing, not even a permit: it reads the state of its bucket.
--
-- A bucket is a hash: t = when it was last written (ms); "b" = level of token bucket item b, or count
-- used of quota item b; "eb" = end of the period quota item b counts; "sb", "nb", "vb" = start of the
-- aligned window of sliding window item b, its count, the count of the window before it; "lb", "ab" =
-- backlog of leaky bucket item b, when it was that; "p1".."pN" = the permits of the cap,
-- '<expiry ms>:<lease id>' while leased; x = when a key of token buckets only expires (ms), y = the t of
-- the write that kept x (x holds only while y = t). Fields of each kind have names of their own: a
-- bucket whose limit changed kind finds none of its old kind's state.
--
-- Token buckets: a level is counted in token-milliseconds (tokens x period): a bandwidth refills refill x
-- elapsed of them per elapsed ms, so refilling is exact integer arithmetic. Callers keep capacity x
-- period below 2^53, where Lua's doubles hold integers exactly. An enforced bucket with a max wait may
-- take a cost that refills within it: the level goes below zero (debt) and the request waits.
-- Quotas (calendar quotas and fixed windows alike): the caller sends the period that holds its own time
-- and the next; this script picks by its own time, so every instance resets at the server's boundary:
-- before start it is still the previous period (ending at start), from end on the next (ending at next
-- end). A caller more than a period behind counts in the period it named last, reported as a period's
-- length away. A fixed window sends its length only: the script aligns it on its own clock (windows
-- aligned on the epoch), so no instance's clock can split a short window's count.
-- Sliding windows and leaky buckets follow SlidingWindow.Counts and LeakyBucket.Backlog (Java) line by
-- line, in integers below 2^53 (the parser keeps quota x period and rate x (period + 30 s) there):
-- a sliding window counts per aligned window and estimates the window ending now as previous x (period -
-- elapsed) / period + current; a leaky bucket keeps the time until its next slot is due in units of
-- 1/rate ms (a slot is period units), and admits a request when the slot is due, or due within the max
-- wait (the request waits for it, as for a token bucket's debt). Sliding windows never wait.
-- Permits: one per request whatever its cost, leased for the lease time unless renewed, so a crashed
-- instance leaks none for long. They never wait.
--
-- Reply to 'decide', 'refund', per request: admitted (1 | 0), ms to wait (the longest debt its enforced
-- buckets took; 0 when refused), then per bucket: had the cost (1 | 0), and per item: tokens left
-- (free permits), ms until the cost was there (0 when it was, before this request), ms until the
-- bucket is full (0 when it is), ms until the bucket holds the cost again (0 while it does, after this
-- request). A refused request reports the state it found; an admitted one the state it left.
-- Reply to 'release', 'renew', per lease: 1 when it held a permit, 0 when that was gone.
-- Keys expire when every item is back to full and no permit is leased: a quota's at the end of its
-- period, a sliding window's when its counts have slid out, a leaky bucket's when its backlog drained;
-- a key of token buckets only, from its second write on, up to EXPIRY_SLACK ms later (its expiry is set
-- again only when the time to full passes the one set last, not on every write).

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

local PINNED_TTL = 10000
local EXPIRY_SLACK = 1000

local mode = ARGV[1]
local now = tonumber(ARGV[2])
local pinned = now ~= nil
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
    elseif kind == 'w' then
      -- a fixed window: the quota of the aligned window that holds the server's time, counted as quotas are
      local period = tonumber(ARGV[arg + 2])
      local finish = (floordiv(now, period) + 1) * period
      list[b] = { kind = 'q', quota = tonumber(ARGV[arg + 1]), id = finish, left = finish - now }
      arg = arg + 3
    elseif kind == 's' or kind == 'l' then
      -- quota of a sliding window, rate of a leaky bucket
      list[b] = { kind = kind, quota = tonumber(ARGV[arg + 1]), period = tonumber(ARGV[arg + 2]) }
      arg = arg + 3
    elseif kind == 'c' then
      list[b] = { kind = 'c', permits = tonumber(ARGV[arg + 1]), retry = tonumber(ARGV[arg + 2]) }
      arg = arg + 3
    else
      error('unknown item kind ' .. tostring(kind))
    end
  end
  return list, arg
end

-- Sliding windows: SlidingWindow.Counts, counts = { start, previous, current }, item = { quota, period }

local function windowStart(item, millis)
  return floordiv(millis, item.period) * item.period
end

-- Counts#at (a clock that went back moves nothing)
local function slidingAt(item, counts)
  local start = windowStart(item, now)
  if start <= counts.start then
    return counts
  end
  local previous = 0
  if start == counts.start + item.period then
    previous = counts.current
  end
  return { start = start, previous = previous, current = 0 }
end

-- Counts#scaledUsed
local function slidingUsed(item, counts, extra)
  return counts.previous * (item.period - (now - counts.start)) + (counts.current + extra) * item.period
end

-- Counts#fits
local function slidingFits(item, counts, cost)
  return counts.current + cost <= item.quota and slidingUsed(item, counts, cost) <= item.quota * item.period
end

-- Counts#remaining
local function slidingRemaining(item, counts)
  local left = item.quota * item.period - slidingUsed(item, counts, 0)
  return math.max(0, floordiv(left, item.period))
end

-- Counts#minus, of the current window: a give-back is counted where the script's time is now
local function slidingMinus(counts, cost)
  return { start = counts.start, previous = counts.previous, current = math.max(0, counts.current - cost) }
end

-- Counts#millisUntil
local function slidingUntil(item, counts, cost)
  if slidingFits(item, counts, cost) then
    return 0
  end
  local period = item.period
  local elapsed = now - counts.start
  if counts.current + cost <= item.quota then
    -- in this window, once enough of the previous one has slid out (previous > 0 here)
    local room = (item.quota - counts.current - cost) * period
    return math.max(1, period - floordiv(room, counts.previous) - elapsed)
  end
  -- in the next window, where this window's count is the previous one
  local room = (item.quota - cost) * period
  local intoNext = 0
  if counts.current > 0 then
    intoNext = math.max(0, period - floordiv(room, counts.current))
  end
  return (period - elapsed) + intoNext
end

-- Counts#millisUntilEmpty
local function slidingUntilEmpty(item, counts)
  if counts.current > 0 then
    return counts.start + 2 * item.period - now
  end
  if counts.previous > 0 then
    return counts.start + item.period - now
  end
  return 0
end

-- Leaky buckets: LeakyBucket.Backlog, backlog = { units, at }, item = { quota = rate, period }

-- Backlog#at
local function leakyAt(item, backlog)
  local elapsed = now - backlog.at
  if elapsed <= 0 then
    return backlog
  end
  if elapsed >= floordiv(backlog.units, item.quota) + 1 then
    return { units = 0, at = now }
  end
  return { units = math.max(0, backlog.units - elapsed * item.quota), at = now }
end

-- Backlog#millisUntilDue: rounded down, a slot less than a millisecond away is due
local function leakyDue(item, backlog)
  return floordiv(backlog.units, item.quota)
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
    elseif item.kind == 's' then
      fields[#fields + 1] = 's' .. b
      fields[#fields + 1] = 'n' .. b
      fields[#fields + 1] = 'v' .. b
    elseif item.kind == 'l' then
      fields[#fields + 1] = 'l' .. b
      fields[#fields + 1] = 'a' .. b
    else
      fields[#fields + 1] = tostring(b)
      if item.kind == 'q' then
        fields[#fields + 1] = 'e' .. b
      end
    end
  end
  fields[#fields + 1] = 'x'
  fields[#fields + 1] = 'y'
  local stored = redis.call('HMGET', key, unpack(fields))
  local last = tonumber(stored[1])
  local elapsed = 0
  if last ~= nil and now > last then
    elapsed = now - last
  end
  found = { items = list, dirty = false, value = {}, existed = last ~= nil }
  -- the expiry this script set is trusted only when it wrote the key last (y = t): an older version of
  -- the script, during a rolling upgrade, sets a key's expiry without writing x
  local expires, wrote = tonumber(stored[#fields - 1]), tonumber(stored[#fields])
  if expires ~= nil and wrote ~= nil and wrote == last then
    found.expires = expires
  end
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
    elseif item.kind == 's' then
      local start, current, previous = tonumber(stored[f]), tonumber(stored[f + 1]), tonumber(stored[f + 2])
      f = f + 3
      if start == nil or current == nil or previous == nil then
        start, current, previous = windowStart(item, now), 0, 0
      end
      found.value[b] = slidingAt(item, { start = start, previous = previous, current = current })
    elseif item.kind == 'l' then
      local units, at = tonumber(stored[f]), tonumber(stored[f + 1])
      f = f + 2
      if units == nil or at == nil then
        units, at = 0, now
      end
      found.value[b] = leakyAt(item, { units = units, at = at })
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

-- whether every item of a bucket is a token bucket, whose key may outlive its time to full a little
local function tokensOnly(list)
  for _, item in ipairs(list) do
    if item.kind ~= 'b' then
      return false
    end
  end
  return true
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
      elseif item.kind == 's' then
        short = slidingUntil(item, state.value[b], cost)
        if short > 0 then
          check.has = false
        end
      elseif item.kind == 'l' then
        short = leakyDue(item, state.value[b])
        if short > 0 then
          if enforced and short <= maxWait then
            -- due within the wait: the slot is taken now, the request waits for it
            wait = math.max(wait, short)
          else
            check.has = false
          end
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
      elseif item.kind == 's' then
        local counts = state.value[b]
        if refund then
          counts = slidingMinus(counts, cost)
        elseif taking then
          counts = { start = counts.start, previous = counts.previous, current = counts.current + cost }
        end
        state.value[b] = counts
        reply[#reply + 1] = slidingRemaining(item, counts)
        reply[#reply + 1] = check.short[b]
        reply[#reply + 1] = slidingUntilEmpty(item, counts)
        reply[#reply + 1] = slidingUntil(item, counts, cost)
      elseif item.kind == 'l' then
        local backlog = state.value[b]
        if refund then
          backlog = { units = math.max(0, backlog.units - cost * item.period), at = backlog.at }
        elseif taking then
          backlog = { units = backlog.units + cost * item.period, at = backlog.at }
        end
        state.value[b] = backlog
        local due = leakyDue(item, backlog)
        reply[#reply + 1] = (due == 0) and 1 or 0
        reply[#reply + 1] = check.short[b]
        reply[#reply + 1] = due
        reply[#reply + 1] = due
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
      elseif item.kind == 's' then
        local counts = state.value[b]
        values[#values + 1] = 's' .. b
        values[#values + 1] = counts.start
        values[#values + 1] = 'n' .. b
        values[#values + 1] = counts.current
        values[#values + 1] = 'v' .. b
        values[#values + 1] = counts.previous
        ttl = math.max(ttl, slidingUntilEmpty(item, counts))
      elseif item.kind == 'l' then
        local backlog = state.value[b]
        values[#values + 1] = 'l' .. b
        values[#values + 1] = backlog.units
        values[#values + 1] = 'a' .. b
        values[#values + 1] = backlog.at
        -- until the backlog has drained entirely
        ttl = math.max(ttl, ceildiv(backlog.units, item.quota))
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
    if pinned then
      ttl = math.max(ttl, PINNED_TTL)
    end
    local expire = true
    if state.existed and tokensOnly(state.items) and not pinned then
      -- a busy bucket's time to full moves a little with each request: the key lives up to
      -- EXPIRY_SLACK ms longer than it must, so most writes skip PEXPIRE (a third of the calls);
      -- a new key expires exactly, so a flood of one request per key keeps keys no longer
      if state.expires ~= nil and state.expires >= now + ttl then
        expire = false
      else
        ttl = ttl + EXPIRY_SLACK
        values[#values + 1] = 'x'
        values[#values + 1] = now + ttl
      end
      values[#values + 1] = 'y'
      values[#values + 1] = now
    end
    redis.call('HSET', key, unpack(values))
    if #freed > 0 then
      redis.call('HDEL', key, unpack(freed))
    end
    if expire then
      redis.call('PEXPIRE', key, ttl)
    end
  end
end
return reply
