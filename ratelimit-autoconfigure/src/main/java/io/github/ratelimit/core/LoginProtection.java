package io.github.ratelimit.core;

import java.util.concurrent.atomic.LongAdder;

import org.jspecify.annotations.Nullable;

import io.github.ratelimit.control.BanRule;
import io.github.ratelimit.policy.CountedResponses;
import io.github.ratelimit.policy.Dimension;
import io.github.ratelimit.policy.Limit;
import io.github.ratelimit.policy.Mode;
import io.github.ratelimit.policy.Policy;
import io.github.ratelimit.policy.PolicyScope;

/**
 * Failed-login protection ({@code ratelimit.login-protection}): the failed attempts of a
 * client address and of an account (across addresses) each have a budget. An attempt
 * takes a token from both when it starts, before its password is checked, and gives it
 * back when its response is not a failure; once a budget is spent, attempts are refused
 * with 429 before authentication. An address refused often enough is banned (the ban
 * machinery, doubling on repeat). The limits are the limiter's own policies
 * ({@value #TIER}-ip-{@value #GROUP}, {@value #TIER}-account-{@value #GROUP}) under their
 * own store keys ({@link PolicyScope#LOGIN}).
 */
public final class LoginProtection {

	/** The tier name of the protection's policies. */
	public static final String TIER = "login";

	/** The group name of the protection's policies. */
	public static final String GROUP = "failures";

	private final Policy perAddress;

	private final @Nullable Policy perAccount;

	private final CountedResponses failures;

	private final @Nullable BanRule bans;

	private final LongAdder failuresCounted = new LongAdder();

	private final LongAdder addressesThrottled = new LongAdder();

	private final LongAdder accountsThrottled = new LongAdder();

	/**
	 * Creates the protection.
	 * @param perAddress failed attempts per client address
	 * @param perAccount failed attempts per account tried, or {@code null} for none
	 * @param failures the statuses that are failures
	 * @param bans when an address refused this way is banned, or {@code null} for never
	 */
	public LoginProtection(Limit perAddress, @Nullable Limit perAccount, CountedResponses failures,
			@Nullable BanRule bans) {
		if (failures.all()) {
			throw new IllegalArgumentException("login protection counts failures, not every response");
		}
		// a scope of its own: no tier or group of the application can share these buckets
		this.perAddress = new Policy(PolicyScope.LOGIN, Dimension.IP, GROUP, perAddress, Mode.ENFORCE, 0, failures);
		this.perAccount = (perAccount != null)
				? new Policy(PolicyScope.LOGIN, Dimension.ACCOUNT, GROUP, perAccount, Mode.ENFORCE, 0, failures) : null;
		this.failures = failures;
		this.bans = bans;
	}

	/** The policy of failed attempts per client address. */
	public Policy perAddress() {
		return this.perAddress;
	}

	/** The policy of failed attempts per account, or {@code null}. */
	public @Nullable Policy perAccount() {
		return this.perAccount;
	}

	/** When an address refused for its failures is banned, or {@code null} for never. */
	public @Nullable BanRule bans() {
		return this.bans;
	}

	/** Whether a final status is a failed attempt. */
	public boolean isFailure(int status) {
		return this.failures.counts(status);
	}

	/** Whether a policy is one of this protection's. */
	public boolean owns(Policy policy) {
		return policy == this.perAddress || policy == this.perAccount;
	}

	/** Notes the final status of an attempt that was let through. */
	public void attempted(int status) {
		if (isFailure(status)) {
			this.failuresCounted.increment();
		}
	}

	void refused(Policy binding) {
		if (binding == this.perAccount) {
			this.accountsThrottled.increment();
		}
		else {
			this.addressesThrottled.increment();
		}
	}

	/** Failed attempts counted since start. */
	public long failuresCounted() {
		return this.failuresCounted.sum();
	}

	/** Attempts refused since start because their address spent its failures. */
	public long addressesThrottled() {
		return this.addressesThrottled.sum();
	}

	/** Attempts refused since start because their account spent its failures. */
	public long accountsThrottled() {
		return this.accountsThrottled.sum();
	}

}
