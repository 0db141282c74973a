package io.github.ratelimit.core;

import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.github.ratelimit.control.Subject;
import io.github.ratelimit.identity.Identity;
import io.github.ratelimit.identity.LogSafe;

/**
 * Writes one structured line per refused request, at INFO, so an operator can see who is
 * limited and why; and, to {@code io.github.ratelimit.warnings}, one per admitted request
 * that a limit in observe or warn mode would have refused, or that is past a soft limit
 * ({@code warn-at}). Ids are verified names or client addresses; credentials never reach
 * it (tokens are hashes). Ids and tiers are escaped: a user name with a line break cannot
 * forge a line.
 * <p>
 * A flood of refused requests must not become a flood of log lines: at most
 * {@code linesPerSecond} lines are written each second, and the next line written says
 * how many were left out.
 */
public final class RejectionLogger implements DecisionListener {

	/**
	 * Where refusals are logged, one line each, and the top refused callers of each
	 * period.
	 */
	public static final String REJECTIONS_LOGGER = "io.github.ratelimit.rejections";

	private static final Logger logger = LoggerFactory.getLogger(REJECTIONS_LOGGER);

	private static final Logger warnings = LoggerFactory.getLogger("io.github.ratelimit.warnings");

	private static final long SECOND = 1_000_000_000L;

	private final int linesPerSecond;

	private final LongSupplier nanoTime;

	private final AtomicLong windowStart;

	private final AtomicLong linesInWindow = new AtomicLong();

	private final AtomicLong suppressed = new AtomicLong();

	public RejectionLogger() {
		this(100, System::nanoTime);
	}

	RejectionLogger(int linesPerSecond, LongSupplier nanoTime) {
		this.linesPerSecond = linesPerSecond;
		this.nanoTime = nanoTime;
		this.windowStart = new AtomicLong(nanoTime.getAsLong());
	}

	@Override
	public void onDecision(Decision decision, long elapsedNanos) {
		if (decision instanceof Decision.Admitted) {
			if (decision instanceof Decision.Allowed allowed
					&& (!allowed.limits().warnings().isEmpty() || !allowed.observed().isEmpty())) {
				onWarning(allowed);
			}
			return;
		}
		if (!logger.isInfoEnabled()) {
			return;
		}
		if (!mayWrite()) {
			this.suppressed.incrementAndGet();
			return;
		}
		long left = this.suppressed.getAndSet(0);
		Identity identity = decision.identity();
		if (decision instanceof Decision.Rejected rejected) {
			PolicyState binding = rejected.binding();
			// answered=memory: a refusal the store gave earlier, answered without asking
			// it
			logger.info(
					"rate limit outcome={} policy={} scope={} id={} tier={} group={} limit={} retry_after={} answered={} suppressed={}",
					decision.outcome(), binding.name(), binding.policy().dimensionName(), LogSafe.escape(binding.id()),
					LogSafe.escape(identity.tier()), decision.classification().group(), binding.limit(),
					rejected.retryAfterSeconds(), rejected.remembered() ? "memory" : "store", left);
		}
		else {
			// denied, banned, blocked, unavailable or shed: the caller as bans and rules
			// name
			// it (keys by token id)
			String policy = "-";
			if (decision instanceof Decision.Blocked blocked) {
				policy = blocked.blockedBy().name();
			}
			else if (decision instanceof Decision.Denied denied && denied.reason() != DenialReason.ACCESS_RULE) {
				// geo_blocked, reputation_denied
				policy = denied.reason().code();
			}
			long retryAfter = retryAfter(decision);
			logger.info("rate limit outcome={} policy={} caller={} tier={} group={} retry_after={} suppressed={}",
					decision.outcome(), policy, LogSafe.escape(Subject.banKey(identity)),
					LogSafe.escape(identity.tier()), decision.classification().group(), retryAfter, left);
		}
	}

	private void onWarning(Decision.Allowed decision) {
		if (!warnings.isInfoEnabled()) {
			return;
		}
		if (!mayWrite()) {
			this.suppressed.incrementAndGet();
			return;
		}
		long left = this.suppressed.getAndSet(0);
		PolicyState state;
		String what;
		if (!decision.observed().isEmpty()) {
			state = decision.observed().get(0);
			what = "would_refuse mode=observe";
		}
		else {
			LimitReport.Warning warning = decision.limits().warnings().get(0);
			state = warning.state();
			what = warning.overLimit() ? "would_refuse mode=warn"
					: "near_limit warn_at=" + state.policy().warnAtPercent() + "%";
		}
		warnings.info("rate limit {} policy={} scope={} id={} tier={} group={} limit={} remaining={} suppressed={}",
				what, state.name(), state.policy().dimensionName(), LogSafe.escape(state.id()),
				LogSafe.escape(decision.identity().tier()), decision.classification().group(), state.limit(),
				Math.max(0, state.remaining()), left);
	}

	private boolean mayWrite() {
		long now = this.nanoTime.getAsLong();
		long start = this.windowStart.get();
		if (now - start >= SECOND && this.windowStart.compareAndSet(start, now)) {
			this.linesInWindow.set(0);
		}
		return this.linesInWindow.incrementAndGet() <= this.linesPerSecond;
	}

	// a ban's and a shed request's wait; the others have none
	private static long retryAfter(Decision decision) {
		if (decision instanceof Decision.Banned banned) {
			return banned.retryAfterSeconds();
		}
		return (decision instanceof Decision.Shed shed) ? shed.retryAfterSeconds() : 0;
	}

}
