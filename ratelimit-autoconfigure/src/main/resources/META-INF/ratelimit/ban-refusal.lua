-- Counts a refusal of a subject and bans it once it was refused often enough within the window.
-- KEYS[1] the subject's refusal counter, KEYS[2] the subject's ban record, KEYS[3] the bans in force
-- (sorted set: member subject, score until ms), KEYS[4] the ban changes (stream)
-- ARGV[1] subject, ARGV[2] refusals that start a ban, ARGV[3] window ms, ARGV[4] first ban ms,
-- ARGV[5] longest ban ms, ARGV[6] how long a ban is remembered after it ends, ms, ARGV[7] the time in ms,
-- or '' for the server's clock, ARGV[8] the most bans in force, ARGV[9] the changes kept (about),
-- KEYS[5] the ban records (sorted set: member the record's key, score when it is forgotten),
-- ARGV[10] the most records kept
-- The ban record is '<until ms>:<offence>:<forget at ms>' and expires at 'forget at': nothing reads every
-- record. A subject banned again before its last ban is forgotten is a repeat offender: its ban lasts
-- twice as long as the last one, up to the longest. Redis TIME is the clock, so every instance agrees.
-- Reply: {} when no ban started, { 'full' } when one would have but ARGV[8] are in force, else
-- { until ms, offence }.
local now = tonumber(ARGV[7])
if now == nil then
  local time = redis.call('TIME')
  now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
end
local offence = 0
local found = redis.call('GET', KEYS[2])
if found then
  local untilMs, last, forget = string.match(found, '^(%d+):(%d+):(%d+)$')
  if untilMs and tonumber(untilMs) > now then
    -- banned already: its requests never reach a limit, a refusal from before the ban counts for nothing
    return {}
  end
  if forget and tonumber(forget) > now then
    offence = tonumber(last)
  end
end
local count = redis.call('INCR', KEYS[1])
if count == 1 then
  redis.call('PEXPIRE', KEYS[1], ARGV[3])
end
if count < tonumber(ARGV[2]) then
  return {}
end
redis.call('ZREMRANGEBYSCORE', KEYS[3], '-inf', now)
if redis.call('ZCARD', KEYS[3]) >= tonumber(ARGV[8]) then
  -- the counter stays (it expires with its window): the caller is still limited, just not banned
  return { 'full' }
end
redis.call('DEL', KEYS[1])
offence = offence + 1
local longest = tonumber(ARGV[5])
local duration = math.min(longest, tonumber(ARGV[4]))
for _ = 2, offence do
  if duration >= longest then
    break
  end
  duration = math.min(longest, duration * 2)
end
local untilMs = now + duration
local remembered = duration + tonumber(ARGV[6])
local forgetAt = untilMs + tonumber(ARGV[6])
redis.call('SET', KEYS[2], string.format('%.0f:%d:%.0f', untilMs, offence, forgetAt),
  'PX', string.format('%.0f', remembered))
-- records are bounded too: forgotten ones leave the index (Redis expired them), and past the bound the
-- ones forgotten soonest go (their subjects' next ban is a first one again); all share this slot
redis.call('ZREMRANGEBYSCORE', KEYS[5], '-inf', now)
redis.call('ZREM', KEYS[5], KEYS[2])
local excess = redis.call('ZCARD', KEYS[5]) - tonumber(ARGV[10]) + 1
if excess > 0 then
  local oldest = redis.call('ZPOPMIN', KEYS[5], excess)
  for i = 1, #oldest, 2 do
    redis.call('DEL', oldest[i])
  end
end
redis.call('ZADD', KEYS[5], string.format('%.0f', forgetAt), KEYS[2])
redis.call('ZADD', KEYS[3], string.format('%.0f', untilMs), ARGV[1])
local untilText = string.format('%.0f', untilMs)
redis.call('XADD', KEYS[4], 'MAXLEN', '~', ARGV[9], '*', 's', ARGV[1], 'u', untilText, 'o', offence)
return { untilText, offence }
