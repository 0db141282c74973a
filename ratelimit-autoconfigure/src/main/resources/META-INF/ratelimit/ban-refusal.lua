-- Counts a refusal of a subject and bans it once it was refused often enough within the window.
-- KEYS[1] the subject's refusal counter, KEYS[2] the bans hash, KEYS[3] the control state's version
-- ARGV[1] subject, ARGV[2] refusals that start a ban, ARGV[3] window ms, ARGV[4] first ban ms,
-- ARGV[5] longest ban ms, ARGV[6] how long a ban is remembered after it ends, ms, ARGV[7] the time in ms,
-- or '' for the server's clock
-- A ban is the field <subject> of the bans hash: '<until ms>:<offence>:<forget at ms>'. A subject
-- banned again before its last ban is forgotten is a repeat offender: its ban lasts twice as long as
-- the last one, up to the longest. Redis TIME is the clock, so every instance agrees on the end.
-- Reply: {} when no ban started, else { until ms, offence }.
local now = tonumber(ARGV[7])
if now == nil then
  local time = redis.call('TIME')
  now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
end
local offence = 0
local found = redis.call('HGET', KEYS[2], ARGV[1])
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
redis.call('HSET', KEYS[2], ARGV[1], string.format('%.0f:%d:%.0f', untilMs, offence, untilMs + tonumber(ARGV[6])))
redis.call('INCR', KEYS[3])
return { string.format('%.0f', untilMs), offence }
