package io.github.ratelimit.storage.redis.control;

import java.util.ArrayList;
import java.util.List;
import java.util.function.LongSupplier;

import io.lettuce.core.cluster.api.sync.RedisClusterCommands;

import io.github.ratelimit.control.AccessRule;
import io.github.ratelimit.control.ControlState;
import io.github.ratelimit.control.LimitOverride;

/**
 * Reads what an instance's refresh polls: the version operators' writes move, and the
 * overrides and access rules in force, read whole when it moved.
 */
final class ControlStateReader {

	private final ControlKeys keys;

	private final LongSupplier clock;

	/**
	 * Creates a reader.
	 * @param keys where the state lives
	 * @param clock the time in ms that expiries are judged by
	 */
	ControlStateReader(ControlKeys keys, LongSupplier clock) {
		this.keys = keys;
		this.clock = clock;
	}

	long version(RedisClusterCommands<byte[], byte[]> commands) {
		byte[] value = commands.get(this.keys.version());
		return (value != null) ? Long.parseLong(ControlRecords.string(value)) : 0;
	}

	ControlState load(RedisClusterCommands<byte[], byte[]> commands) {
		long now = this.clock.getAsLong();
		List<LimitOverride> overrides = new ArrayList<>();
		List<byte[]> expiredOverrides = new ArrayList<>();
		commands.hgetall(this.keys.overrides()).forEach((field, value) -> {
			LimitOverride override = ControlRecords.override(ControlRecords.string(field),
					ControlRecords.string(value));
			if (override == null || override.expired(now)) {
				expiredOverrides.add(field);
			}
			else {
				overrides.add(override);
			}
		});
		List<AccessRule> rules = new ArrayList<>();
		List<byte[]> expiredRules = new ArrayList<>();
		commands.hgetall(this.keys.rules()).forEach((field, value) -> {
			AccessRule rule = ControlRecords.rule(ControlRecords.string(field), ControlRecords.string(value));
			if (rule == null || rule.expired(now)) {
				expiredRules.add(field);
			}
			else {
				rules.add(rule);
			}
		});
		// expired entries go without a version change: every instance skips them by their
		// expiry anyway
		if (!expiredOverrides.isEmpty()) {
			commands.hdel(this.keys.overrides(), expiredOverrides.toArray(new byte[0][]));
		}
		if (!expiredRules.isEmpty()) {
			commands.hdel(this.keys.rules(), expiredRules.toArray(new byte[0][]));
		}
		return new ControlState(overrides, rules);
	}

}
