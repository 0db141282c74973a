package io.github.ratelimit.core;

import org.jspecify.annotations.Nullable;

import io.github.ratelimit.identity.AddressBits;

/**
 * A check of the gate by client address alone, beside the access rules and bans: country
 * rules, reputation lists. Answers from memory, never from a store: it runs for every
 * request while it is in force.
 */
public interface AddressScreen {

	/**
	 * Checks a client address.
	 * @param address the client address as the identity layer resolved it (not grouped)
	 * @return why the address is refused, or {@code null} when the screen lets it through
	 */
	@Nullable DenialReason screen(AddressBits address);

	/**
	 * Whether the screen may refuse anything: a screen that never does (reputation lists
	 * that only assign tiers) costs the gate nothing.
	 */
	default boolean refuses() {
		return true;
	}

}
