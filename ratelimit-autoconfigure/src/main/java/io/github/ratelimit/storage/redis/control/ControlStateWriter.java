package io.github.ratelimit.storage.redis.control;

import io.lettuce.core.cluster.api.sync.RedisClusterCommands;

import io.github.ratelimit.control.AccessRule;
import io.github.ratelimit.control.LimitOverride;
import io.github.ratelimit.control.Subject;
import io.github.ratelimit.policy.Dimension;

/**
 * Writes an operator's overrides and access rules; every write moves the version, so
 * every instance reads the state again on its next refresh.
 */
final class ControlStateWriter {

	private final ControlKeys keys;

	ControlStateWriter(ControlKeys keys) {
		this.keys = keys;
	}

	void putOverride(RedisClusterCommands<byte[], byte[]> commands, LimitOverride override) {
		commands.hset(this.keys.overrides(),
				ControlRecords
					.bytes(ControlRecords.overrideField(override.dimension(), override.group(), override.id())),
				ControlRecords.bytes(override.limit() + "\n" + ControlRecords.millis(override.expiresAt())));
		commands.incr(this.keys.version());
	}

	boolean deleteOverride(RedisClusterCommands<byte[], byte[]> commands, Dimension dimension, String id,
			String group) {
		boolean deleted = commands.hdel(this.keys.overrides(),
				ControlRecords.bytes(ControlRecords.overrideField(dimension, group, id))) > 0;
		commands.incr(this.keys.version());
		return deleted;
	}

	void putRule(RedisClusterCommands<byte[], byte[]> commands, AccessRule rule) {
		commands.hset(this.keys.rules(), ControlRecords.bytes(rule.subject().toString()),
				ControlRecords.bytes(rule.access().name() + "\n" + ((rule.tier() != null) ? rule.tier() : "") + "\n"
						+ ControlRecords.millis(rule.expiresAt())));
		commands.incr(this.keys.version());
	}

	boolean deleteRule(RedisClusterCommands<byte[], byte[]> commands, Subject subject) {
		boolean deleted = commands.hdel(this.keys.rules(), ControlRecords.bytes(subject.toString())) > 0;
		commands.incr(this.keys.version());
		return deleted;
	}

}
