package io.github.ratelimit.identity;

import org.jspecify.annotations.Nullable;

/**
 * The tier an anonymous caller is held to by its client address alone (addresses on a
 * reputation list held to a tier of tighter limits). A verified caller keeps the tier of
 * its credential.
 */
@FunctionalInterface
public interface AddressTiers {

	/**
	 * The tier of an anonymous caller's address.
	 * @param address the client address, not grouped
	 * @return the tier, or {@code null} for the anonymous tier
	 */
	@Nullable String tierOf(String address);

	/**
	 * Whether any address may get a tier: when none may, the identity layer never asks
	 * (and never resolves an anonymous caller's address for it).
	 */
	default boolean assigns() {
		return true;
	}

}
