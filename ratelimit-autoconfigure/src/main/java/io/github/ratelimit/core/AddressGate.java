package io.github.ratelimit.core;

import java.time.Clock;
import java.util.List;
import java.util.function.Supplier;

import org.jspecify.annotations.Nullable;

import io.github.ratelimit.control.AccessVerdict;
import io.github.ratelimit.control.Ban;
import io.github.ratelimit.control.RuntimeControl;
import io.github.ratelimit.identity.AddressBits;
import io.github.ratelimit.identity.ClientRequest;
import io.github.ratelimit.identity.Identifier;
import io.github.ratelimit.identity.Identity;
import io.github.ratelimit.policy.Classification;

/**
 * Step zero of the pipeline: what the client address alone decides, before
 * authentication, so that a denied or banned address never makes the server check a
 * password. A deny rule whose range holds the address answers {@link Decision.Denied}; a
 * ban on the address ({@code ip:<group>}, an IPv6 client by its prefix as the limiter
 * counts it) answers {@link Decision.Banned}, unless an allow rule without a tier holds
 * the address (an allow-listed address is never banned, as in the limiter). The
 * {@link AddressScreen screens} (country rules, reputation lists) come after the deny
 * rules and before the bans, and an allow rule without a tier passes them too: what an
 * operator allowed by name wins over a feed. Rules and bans on users, orgs and keys need
 * the verified caller: the {@link RateLimiter} applies them after authentication, with
 * the limits.
 * <p>
 * Reads only the runtime control's local snapshot and bans, never a store. While no
 * address rule and no ban is in force, {@link #active()} is false and a request's address
 * is not even resolved.
 */
public final class AddressGate {

	private final Identifier identifier;

	private final RuntimeControl control;

	private final Clock clock;

	private final List<AddressScreen> screens;

	/**
	 * Creates a gate.
	 * @param identifier resolves client addresses
	 * @param control the rules and bans in force
	 * @param clock the clock of {@link Decision#decidedAt()}
	 */
	public AddressGate(Identifier identifier, RuntimeControl control, Clock clock) {
		this(identifier, control, clock, List.of());
	}

	/**
	 * Creates a gate with screens.
	 * @param identifier resolves client addresses
	 * @param control the rules and bans in force
	 * @param clock the clock of {@link Decision#decidedAt()}
	 * @param screens further checks by address (country rules, reputation lists), in
	 * order
	 */
	public AddressGate(Identifier identifier, RuntimeControl control, Clock clock, List<AddressScreen> screens) {
		this.identifier = identifier;
		this.control = control;
		this.clock = clock;
		this.screens = screens.stream().filter(AddressScreen::refuses).toList();
	}

	/**
	 * Whether the gate may refuse anything now: an address rule, a ban or a screen is in
	 * force.
	 */
	public boolean active() {
		return !this.screens.isEmpty() || this.control.guardsAddresses();
	}

	/**
	 * Checks a request by its client address.
	 * @param request the request, before authentication
	 * @param classification the request's classification, asked for only to describe a
	 * refusal (metrics, log, body)
	 * @return the refusal ({@link Decision.Denied} or {@link Decision.Banned}), or
	 * {@code null} when the request goes on
	 */
	public Decision.@Nullable Refusal check(ClientRequest request, Supplier<Classification> classification) {
		if (!active()) {
			return null;
		}
		String address = this.identifier.address(request);
		AccessVerdict verdict = this.control.addressAccess(address);
		if (verdict.denied()) {
			return new Decision.Denied(this.identifier.anonymous(request), classification.get(), this.clock.instant());
		}
		if (verdict.bypasses()) {
			return null;
		}
		DenialReason screened = screen(address);
		if (screened != null) {
			return new Decision.Denied(this.identifier.anonymous(request), classification.get(), this.clock.instant(),
					screened);
		}
		Identity identity = this.identifier.anonymous(request);
		Ban ban = this.control.ban(identity);
		if (ban == null) {
			return null;
		}
		return new Decision.Banned(identity, classification.get(), this.clock.instant(),
				ban.secondsLeft(this.clock.millis()));
	}

	private @Nullable DenialReason screen(String address) {
		if (this.screens.isEmpty()) {
			return null;
		}
		AddressBits bits = AddressBits.parse(address);
		if (bits == null) {
			// the peer address of a socket that is no IP (a Unix socket): nothing to look
			// up
			return null;
		}
		for (AddressScreen screen : this.screens) {
			DenialReason reason = screen.screen(bits);
			if (reason != null) {
				return reason;
			}
		}
		return null;
	}

}
