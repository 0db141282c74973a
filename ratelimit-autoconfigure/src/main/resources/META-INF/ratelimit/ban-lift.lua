-- Lifts a subject's ban: it ends now, its offence is remembered as long as it would have been (so a repeat
-- still doubles), it leaves the bans in force, and the change is appended for the other instances.
-- KEYS[1] the subject's refusal counter, KEYS[2] its ban record, KEYS[3] the bans in force (sorted set),
-- KEYS[4] the ban changes (stream)
-- ARGV[1] subject, ARGV[2] the time in ms, or '' for the server's clock, ARGV[3] the changes kept (about)
-- Reply: 1 when a ban was in force, else 0.
local now = tonumber(ARGV[2])
if now == nil then
  local time = redis.call('TIME')
  now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
end
redis.call('DEL', KEYS[1])
local active = 0
local found = redis.call('GET', KEYS[2])
if found then
  local untilMs, last, forget = string.match(found, '^(%d+):(%d+):(%d+)$')
  if untilMs and tonumber(untilMs) > now then
    active = 1
    local ttl = redis.call('PTTL', KEYS[2])
    local value = string.format('%.0f:%s:%s', now, last, forget)
    if ttl > 0 then
      redis.call('SET', KEYS[2], value, 'PX', ttl)
    else
      redis.call('SET', KEYS[2], value)
    end
  end
end
redis.call('ZREM', KEYS[3], ARGV[1])
-- always appended: an instance may hold a ban the store already forgot
redis.call('XADD', KEYS[4], 'MAXLEN', '~', ARGV[3], '*', 's', ARGV[1], 'u', string.format('%.0f', now), 'o', 0)
return active
