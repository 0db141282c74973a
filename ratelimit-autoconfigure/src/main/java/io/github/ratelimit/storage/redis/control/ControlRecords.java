package io.github.ratelimit.storage.redis.control;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.util.Base64;
import java.util.HexFormat;

import org.jspecify.annotations.Nullable;

import io.github.ratelimit.control.AccessRule;
import io.github.ratelimit.control.LimitOverride;
import io.github.ratelimit.control.Subject;
import io.github.ratelimit.policy.Dimension;

/**
 * How the control store writes its records in Redis: fields and values are joined by
 * newlines, which no id, limit or tier holds; a record another version (or a hand) wrote
 * that cannot be read is skipped, not fatal.
 */
final class ControlRecords {

	private ControlRecords() {
	}

	static String overrideField(Dimension dimension, String group, String id) {
		return dimension.key() + "\n" + group + "\n" + id;
	}

	static @Nullable LimitOverride override(String field, String value) {
		String[] key = field.split("\n", 3);
		String[] parts = value.split("\n", -1);
		Dimension dimension = (key.length == 3) ? Dimension.fromKey(key[0]) : null;
		if (dimension == null || parts.length != 2) {
			return null;
		}
		try {
			return new LimitOverride(dimension, key[2], key[1], parts[0], instant(parts[1]));
		}
		catch (RuntimeException ex) {
			// written by hand or by another version: unreadable, like a malformed field
			return null;
		}
	}

	static @Nullable AccessRule rule(String field, String value) {
		String[] parts = value.split("\n", -1);
		if (parts.length != 3) {
			return null;
		}
		try {
			return new AccessRule(AccessRule.Access.valueOf(parts[0]), Subject.parse(field),
					parts[1].isEmpty() ? null : parts[1], instant(parts[2]));
		}
		catch (RuntimeException ex) {
			return null;
		}
	}

	static String millis(@Nullable Instant instant) {
		return (instant != null) ? Long.toString(instant.toEpochMilli()) : "";
	}

	static @Nullable Instant instant(String millis) {
		return millis.isEmpty() ? null : Instant.ofEpochMilli(Long.parseLong(millis));
	}

	// a subject may be long and hold anything a user name holds: its counter key holds a
	// hash of it
	static String hashed(String subject) {
		return Base64.getUrlEncoder()
			.withoutPadding()
			.encodeToString(digest("SHA-256", bytes(subject)))
			.substring(0, 22);
	}

	static byte[] digest(String algorithm, byte[] bytes) {
		try {
			return MessageDigest.getInstance(algorithm).digest(bytes);
		}
		catch (NoSuchAlgorithmException ex) {
			throw new IllegalStateException(ex);
		}
	}

	static String hex(byte[] bytes) {
		return HexFormat.of().formatHex(bytes);
	}

	static byte[] bytes(String text) {
		return text.getBytes(StandardCharsets.UTF_8);
	}

	static String string(byte[] bytes) {
		return new String(bytes, StandardCharsets.UTF_8);
	}

}
