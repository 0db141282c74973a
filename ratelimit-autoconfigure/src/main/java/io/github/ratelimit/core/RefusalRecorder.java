package io.github.ratelimit.core;

import org.jspecify.annotations.Nullable;

import io.github.ratelimit.control.RuntimeControl;
import io.github.ratelimit.control.Subject;
import io.github.ratelimit.policy.Dimension;

/**
 * Told of the decisions the store made: a refusal counts in the {@link TopRefused top
 * refused callers}, and towards a ban where the caller's tier or group bans; a refusal
 * for spent failed logins counts for the {@link LoginProtection}, and towards a ban of
 * the address only; a refusal by a budget of the service (all callers together) never
 * counts towards a ban.
 */
final class RefusalRecorder {

	private final TopRefused topRefused;

	private final @Nullable RuntimeControl control;

	private final @Nullable LoginProtection loginProtection;

	RefusalRecorder(TopRefused topRefused, @Nullable RuntimeControl control,
			@Nullable LoginProtection loginProtection) {
		this.topRefused = topRefused;
		this.control = control;
		this.loginProtection = loginProtection;
	}

	/**
	 * Records a decision if it is a {@link Decision.Rejected rejection}.
	 * @param decision a decision the store made
	 * @return {@code decision}
	 */
	Decision recorded(Decision decision) {
		if (!(decision instanceof Decision.Rejected rejected)) {
			return decision;
		}
		this.topRefused.record(Subject.banKey(rejected.identity()));
		LoginProtection login = this.loginProtection;
		PolicyState binding = rejected.binding();
		if (login != null && login.owns(binding.policy())) {
			login.refused(binding.policy());
			// an address that keeps trying once its failures are spent is banned; one
			// refused for the account it tries is not (the account's owner may be among
			// them)
			if (this.control != null && binding.policy() == login.perAddress() && login.bans() != null) {
				this.control.refused(rejected.identity(), login.bans());
			}
		}
		else if (this.control != null && binding.dimension() != Dimension.SERVICE) {
			// a busy service is no caller's fault: its refusals never count towards a ban
			this.control.refused(rejected.identity(), rejected.identity().tier(), rejected.classification().group());
		}
		return decision;
	}

}
