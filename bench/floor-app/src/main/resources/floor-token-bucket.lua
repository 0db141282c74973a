-- A minimal single-key token bucket, the least a one-trip Redis limiter does per request: read the
-- bucket, refill it for the time elapsed (Redis's clock), take one token if there is one, write it back
-- with an expiry. KEYS[1]: the bucket; ARGV[1]: capacity; ARGV[2]: period in ms to refill it whole.
-- Returns 1 (admitted) or 0 (refused).
local capacity = tonumber(ARGV[1])
local period = tonumber(ARGV[2])
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
local state = redis.call('HMGET', KEYS[1], 'tokens', 'ts')
local tokens = tonumber(state[1])
local ts = tonumber(state[2])
if tokens == nil or ts == nil then
  tokens = capacity
  ts = now
elseif now > ts then
  tokens = math.min(capacity, tokens + (now - ts) * capacity / period)
  ts = now
end
local admitted = 0
if tokens >= 1 then
  tokens = tokens - 1
  admitted = 1
end
redis.call('HSET', KEYS[1], 'tokens', tokens, 'ts', ts)
redis.call('PEXPIRE', KEYS[1], period)
return admitted
