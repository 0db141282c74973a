package io.github.ratelimit.core;

import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.stream.Stream;

import io.github.ratelimit.identity.Identity;
import io.github.ratelimit.load.Priority;
import io.github.ratelimit.policy.Classification;
import io.github.ratelimit.policy.Policy;

/**
 * The limiter's answer for one request: one record per outcome, each holding only what
 * that outcome uses. A decision either {@link Admitted admits} the request or is a
 * {@link Refusal}; adapters match on the record ({@code instanceof}) to answer it, and
 * {@link #outcome()} names it in logs and metrics.
 */
public sealed interface Decision permits Decision.Admitted, Decision.Refusal {

	/** Who called. */
	Identity identity();

	/** The request's endpoint group and cost. */
	Classification classification();

	/** When it was decided. */
	Instant decidedAt();

	/** What was decided, named by the record's type. */
	Outcome outcome();

	/**
	 * The limits the response reports: those the store checked for an {@link Allowed
	 * allowed} or {@link Rejected rejected} request, none for the others.
	 */
	default LimitReport limits() {
		return LimitReport.NONE;
	}

	/** A decision that lets the request go on to the application. */
	sealed interface Admitted extends Decision permits Unlimited, Allowed, AdmittedOnError {

	}

	/** A decision that answers the request in the application's stead. */
	sealed interface Refusal extends Decision permits Rejected, Blocked, Denied, Banned, Unavailable, Shed {

	}

	/**
	 * No limit applies (excluded path, allow-listed caller, or no policy for the tier and
	 * group): nothing is written.
	 *
	 * @param identity who called
	 * @param classification the endpoint group and cost
	 * @param decidedAt when it was decided
	 */
	record Unlimited(Identity identity, Classification classification, Instant decidedAt) implements Admitted {

		@Override
		public Outcome outcome() {
			return Outcome.UNLIMITED;
		}

	}

	/**
	 * Every enforced limit admitted the request.
	 *
	 * @param identity who called
	 * @param classification the endpoint group and cost
	 * @param decidedAt when it was decided
	 * @param limits the limits checked, the one closest to exhaustion binding
	 * @param observed the states that would have refused the request under a policy in
	 * {@link io.github.ratelimit.policy.Mode#OBSERVE observe} mode; never shown in the
	 * response
	 * @param waitMillis how long the request waits for its tokens before it proceeds (0:
	 * at once)
	 * @param completion what the request gives back when its wait and its response are
	 * over
	 */
	record Allowed(Identity identity, Classification classification, Instant decidedAt, LimitReport limits,
			List<PolicyState> observed, long waitMillis, Completion completion) implements Admitted {

		/**
		 * An allowed request that observed nothing, waits for nothing and holds nothing.
		 * @param identity who called
		 * @param classification the endpoint group and cost
		 * @param decidedAt when it was decided
		 * @param limits the limits checked
		 */
		public Allowed(Identity identity, Classification classification, Instant decidedAt, LimitReport limits) {
			this(identity, classification, decidedAt, limits, List.of(), 0, Completion.NONE);
		}

		@Override
		public Outcome outcome() {
			return Outcome.ALLOWED;
		}

		/** Whether a policy in observe or warn mode would have refused the request. */
		public boolean wouldHaveBeenRefused() {
			return !this.observed.isEmpty() || this.limits.warnings().stream().anyMatch(LimitReport.Warning::overLimit);
		}

	}

	/**
	 * The store could not decide and {@code failure-mode} is {@code open}: admitted, and
	 * counted.
	 *
	 * @param identity who called
	 * @param classification the endpoint group and cost
	 * @param decidedAt when it was decided
	 */
	record AdmittedOnError(Identity identity, Classification classification, Instant decidedAt) implements Admitted {

		@Override
		public Outcome outcome() {
			return Outcome.ADMITTED_ON_ERROR;
		}

	}

	/**
	 * A limit is spent: 429, retry later.
	 *
	 * @param identity who called
	 * @param classification the endpoint group and cost
	 * @param decidedAt when it was decided
	 * @param limits the limits checked; the binding state is the violated bandwidth with
	 * the longest wait
	 * @param remembered whether it was answered from a refusal the store gave earlier,
	 * without asking the store ({@link LocalRefusals})
	 */
	record Rejected(Identity identity, Classification classification, Instant decidedAt, LimitReport limits,
			boolean remembered) implements Refusal {

		/**
		 * Checks that the refusal names its reason.
		 * @throws IllegalArgumentException when {@code limits} has no binding state
		 */
		public Rejected {
			if (limits.binding() == null) {
				throw new IllegalArgumentException("A rejection names the limit that refused it");
			}
		}

		/** A refusal the store gave now. */
		public Rejected(Identity identity, Classification classification, Instant decidedAt, LimitReport limits) {
			this(identity, classification, decidedAt, limits, false);
		}

		@Override
		public Outcome outcome() {
			return Outcome.REJECTED;
		}

		/** The violated bandwidth named as the reason. */
		public PolicyState binding() {
			// never null: the constructor checks it
			return Objects.requireNonNull(this.limits.binding());
		}

		/** Seconds until the request could pass. */
		public long retryAfterSeconds() {
			return binding().resetSeconds();
		}

		/** The names of the violated bandwidths, binding first. */
		public List<String> violatedPolicies() {
			PolicyState binding = binding();
			return Stream
				.concat(Stream.of(binding),
						this.limits.states().stream().filter((state) -> state.violated() && state != binding))
				.map(PolicyState::name)
				.distinct()
				.toList();
		}

	}

	/**
	 * A limit of {@code 0} (or one whose bucket can never hold the cost) blocks the
	 * caller's tier from the group: 403, waiting never helps.
	 *
	 * @param identity who called
	 * @param classification the endpoint group and cost
	 * @param decidedAt when it was decided
	 * @param blockedBy the policy whose limit blocks
	 */
	record Blocked(Identity identity, Classification classification, Instant decidedAt,
			Policy blockedBy) implements Refusal {

		@Override
		public Outcome outcome() {
			return Outcome.BLOCKED;
		}

	}

	/**
	 * A deny rule, the country rules or a reputation list refuse the caller: 403, no
	 * store was asked.
	 *
	 * @param identity who called
	 * @param classification the endpoint group and cost
	 * @param decidedAt when it was decided
	 * @param reason what refused it
	 */
	record Denied(Identity identity, Classification classification, Instant decidedAt,
			DenialReason reason) implements Refusal {

		/**
		 * A caller a deny rule names.
		 * @param identity who called
		 * @param classification the endpoint group and cost
		 * @param decidedAt when it was decided
		 */
		public Denied(Identity identity, Classification classification, Instant decidedAt) {
			this(identity, classification, decidedAt, DenialReason.ACCESS_RULE);
		}

		@Override
		public Outcome outcome() {
			return Outcome.DENIED;
		}

	}

	/**
	 * The caller is banned for repeated refusals: 403 until the ban ends.
	 *
	 * @param identity who called
	 * @param classification the endpoint group and cost
	 * @param decidedAt when it was decided
	 * @param retryAfterSeconds seconds until the ban ends
	 */
	record Banned(Identity identity, Classification classification, Instant decidedAt,
			long retryAfterSeconds) implements Refusal {

		@Override
		public Outcome outcome() {
			return Outcome.BANNED;
		}

	}

	/**
	 * The store could not decide and {@code failure-mode} is {@code closed}: 503.
	 *
	 * @param identity who called
	 * @param classification the endpoint group and cost
	 * @param decidedAt when it was decided
	 */
	record Unavailable(Identity identity, Classification classification, Instant decidedAt) implements Refusal {

		@Override
		public Outcome outcome() {
			return Outcome.UNAVAILABLE;
		}

	}

	/**
	 * The service is shedding load and the request's priority is among those shed
	 * ({@code ratelimit.load}): 503, retry later. No limit was checked; the caller's own
	 * budgets are untouched.
	 *
	 * @param identity who called
	 * @param classification the endpoint group and cost
	 * @param decidedAt when it was decided
	 * @param priority the request's priority
	 * @param retryAfterSeconds seconds the caller is told to wait
	 */
	record Shed(Identity identity, Classification classification, Instant decidedAt, Priority priority,
			long retryAfterSeconds) implements Refusal {

		@Override
		public Outcome outcome() {
			return Outcome.SHED;
		}

	}

}
