package io.github.ratelimit.policy;

import java.util.Locale;

import org.jspecify.annotations.Nullable;

/**
 * Whose budget a limit counts against. Declared in tie-break order: when two limits force the same
 * wait, the earlier dimension is named as the reason (org before user before token before ip), so a
 * user is never blamed for their organisation's budget.
 */
public enum Dimension {

	/** The organisation (tenant, workspace) of a verified caller. */
	ORG,

	/** A verified user. */
	USER,

	/** The credential itself (a hash of it), for integration keys shared by several callers. */
	TOKEN,

	/** The client address, grouped by prefix for IPv6. */
	IP;

	private final String key = name().toLowerCase(Locale.ROOT);

	/** The lower-case name used in properties, store keys, headers and bodies. */
	public String key() {
		return this.key;
	}

	/** Returns the dimension named {@code key} (case-insensitive), or {@code null}. */
	public static @Nullable Dimension fromKey(String key) {
		for (Dimension dimension : values()) {
			if (dimension.key.equalsIgnoreCase(key)) {
				return dimension;
			}
		}
		return null;
	}

}
