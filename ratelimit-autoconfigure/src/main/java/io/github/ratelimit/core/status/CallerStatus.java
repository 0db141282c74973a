package io.github.ratelimit.core.status;

import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.ToLongFunction;

import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.github.ratelimit.control.AccessVerdict;
import io.github.ratelimit.control.Ban;
import io.github.ratelimit.control.RuntimeControl;
import io.github.ratelimit.core.BucketReader;
import io.github.ratelimit.core.Decision;
import io.github.ratelimit.core.RequestKeys;
import io.github.ratelimit.identity.ClientRequest;
import io.github.ratelimit.identity.Identifier;
import io.github.ratelimit.identity.Identity;
import io.github.ratelimit.policy.Bandwidth;
import io.github.ratelimit.policy.CalendarQuota;
import io.github.ratelimit.policy.Classification;
import io.github.ratelimit.policy.ConcurrencyLimit;
import io.github.ratelimit.policy.Mode;
import io.github.ratelimit.policy.Policy;
import io.github.ratelimit.policy.PolicyTable;
import io.github.ratelimit.policy.WindowQuota;
import io.github.ratelimit.storage.BandwidthResult;
import io.github.ratelimit.storage.RateLimitStore;
import io.github.ratelimit.storage.RemoteStore;
import io.github.ratelimit.storage.StoreUnavailableException;

/**
 * Answers a caller's question "where do I stand?": the caller identified exactly as the
 * limiter identifies a request (API keys, Spring Security, the client address through
 * trusted proxies), the access rules and bans applied as the limiter applies them, and,
 * for every endpoint group, the limits that apply to the caller there (its tier's, its
 * overrides in their place, the backstop's, the service's budgets that every caller
 * shares, the group's concurrency cap) with what the store holds in their buckets, read
 * in one store call that takes nothing. Policies in {@code observe} mode are left out, as
 * the response headers leave them out.
 * <p>
 * The answer only ever concerns the caller of the request: nothing in the request can
 * name another identity. A deny rule or a ban answers as the limiter answers any other
 * request of the caller; a store that cannot be read now (down, its circuit breaker open)
 * answers 503, whatever the failure mode: numbers made up for an open or local failure
 * mode would mislead the caller.
 */
public final class CallerStatus {

	private static final Logger logger = LoggerFactory.getLogger(CallerStatus.class);

	private final Identifier identifier;

	private final RuntimeControl control;

	private final RateLimitStore store;

	private final BucketReader reader;

	private final ToLongFunction<String> groupCost;

	private final Clock clock;

	private final RequestKeys keys;

	/**
	 * Creates the status, without limits counted per keys of the application's.
	 * @param identifier identifies callers, as the limiter's does
	 * @param control the policy table, overrides, access rules and bans in force
	 * @param store the store the reader reads (asked whether its circuit is open)
	 * @param reader reads buckets from the store without taking a token
	 * @param groupCost the cost of a request of each group
	 * @param clock the clock of quota periods and reset times
	 */
	public CallerStatus(Identifier identifier, RuntimeControl control, RateLimitStore store, BucketReader reader,
			ToLongFunction<String> groupCost, Clock clock) {
		this(identifier, control, store, reader, groupCost, clock, RequestKeys.NONE);
	}

	/**
	 * Creates the status.
	 * @param identifier identifies callers, as the limiter's does
	 * @param control the policy table, overrides, access rules and bans in force
	 * @param store the store the reader reads (asked whether its circuit is open)
	 * @param reader reads buckets from the store without taking a token
	 * @param groupCost the cost of a request of each group
	 * @param clock the clock of quota periods and reset times
	 * @param keys reads the keys of limits counted per a value of the request (a header,
	 * an expression, a bean; a path variable has no value outside the path it is in)
	 */
	public CallerStatus(Identifier identifier, RuntimeControl control, RateLimitStore store, BucketReader reader,
			ToLongFunction<String> groupCost, Clock clock, RequestKeys keys) {
		this.identifier = identifier;
		this.control = control;
		this.store = store;
		this.reader = reader;
		this.groupCost = groupCost;
		this.clock = clock;
		this.keys = keys;
	}

	/**
	 * Where the caller of a request stands. Blocks for at most the store's bound on an
	 * operator's read (Redis: 5 s); never throws for anything the request carries.
	 * @param request the request asking
	 * @return the caller's standing, or the refusal to answer with
	 */
	public StatusAnswer status(ClientRequest request) {
		Identity identity = this.identifier.identify(request);
		Instant now = this.clock.instant();
		boolean bypasses = false;
		if (this.control.hasAccessRules()) {
			String address = this.control.accessNeedsAddress() ? this.identifier.address(request) : identity.ip();
			AccessVerdict verdict = this.control.access(identity, address);
			if (verdict.denied()) {
				return refused(new Decision.Denied(identity, Classification.EXCLUDED, now));
			}
			bypasses = verdict.bypasses();
			if (!bypasses && verdict.tier() != null) {
				identity = identity.withTier(verdict.tier());
			}
		}
		if (!bypasses) {
			Ban ban = this.control.ban(identity);
			if (ban != null) {
				return refused(new Decision.Banned(identity, Classification.EXCLUDED, now,
						ban.secondsLeft(now.toEpochMilli())));
			}
		}
		return standing(request, identity, now, bypasses);
	}

	private StatusAnswer standing(ClientRequest request, Identity identity, Instant now, boolean bypasses) {
		PolicyTable table = this.control.table();
		Map<String, List<Policy>> applicable = new LinkedHashMap<>();
		Map<String, Boolean> blocked = new LinkedHashMap<>();
		Map<Policy, String> ids = new LinkedHashMap<>();
		// each key read once from the request, as the limiter reads it once per request
		RequestKeys.Values keyIds = this.keys.outsideGroups(request, identity);
		for (String group : table.groups()) {
			long cost = this.groupCost.applyAsLong(group);
			List<Policy> policies = new ArrayList<>();
			boolean groupBlocked = false;
			for (Policy policy : bypasses ? List.<Policy>of() : policiesOf(identity, group, table)) {
				String keyName = policy.keyName();
				String id = (keyName != null) ? keyIds.id(keyName) : identity.idFor(policy.dimension());
				if (id == null || policy.mode() == Mode.OBSERVE) {
					continue;
				}
				if (policy.limit().blocked() || cost > policy.limit().maxCost()) {
					// as the limiter: an enforced one answers 403, one in warn mode
					// measures nothing
					groupBlocked |= policy.enforced();
					continue;
				}
				policies.add(policy);
				ids.put(policy, id);
			}
			applicable.put(group, groupBlocked ? List.of() : policies);
			blocked.put(group, groupBlocked);
		}
		Map<Policy, BucketReader.Reading> readings = new LinkedHashMap<>();
		if (!ids.isEmpty()) {
			if (this.store instanceof RemoteStore remote && remote.circuit() == RemoteStore.Circuit.OPEN) {
				return refused(new Decision.Unavailable(identity, Classification.EXCLUDED, now));
			}
			try {
				for (BucketReader.Reading reading : this.reader.read(ids)) {
					readings.put(reading.policy(), reading);
				}
			}
			catch (StoreUnavailableException ex) {
				logger.debug("Rate-limit store unavailable; answering the caller's status 503", ex);
				return refused(new Decision.Unavailable(identity, Classification.EXCLUDED, now));
			}
			catch (RuntimeException ex) {
				logger.warn("Could not read the caller's budgets; answering the caller's status 503", ex);
				return refused(new Decision.Unavailable(identity, Classification.EXCLUDED, now));
			}
		}
		Map<String, GroupStanding> groups = new LinkedHashMap<>();
		applicable.forEach((group, policies) -> {
			List<Budget> budgets = new ArrayList<>();
			for (Policy policy : policies) {
				addBudgets(budgets, policy, readings.get(policy), now.toEpochMilli());
			}
			groups.put(group, new GroupStanding(this.groupCost.applyAsLong(group), blocked.get(group), budgets));
		});
		return new StatusAnswer.Known(new CallerStanding(identity, now, groups, keyIds.ids()));
	}

	/**
	 * The policies of a caller's request in a group: its tier's with its overrides in
	 * their place, and the group's concurrency cap.
	 */
	private List<Policy> policiesOf(Identity identity, String group, PolicyTable table) {
		List<Policy> policies = new ArrayList<>(this.control.policies(identity, group));
		Policy concurrency = table.groupConcurrency(group, identity.user() != null);
		if (concurrency != null) {
			policies.add(concurrency);
		}
		return policies;
	}

	private static void addBudgets(List<Budget> budgets, Policy policy, BucketReader.@Nullable Reading reading,
			long nowMillis) {
		if (reading == null) {
			return;
		}
		List<Bandwidth> bandwidths = policy.limit().bandwidths();
		List<BandwidthResult> results = reading.result().bandwidths();
		for (int b = 0; b < bandwidths.size() && b < results.size(); b++) {
			Bandwidth bandwidth = bandwidths.get(b);
			BandwidthResult result = results.get(b);
			long resetMillis = (bandwidth instanceof ConcurrencyLimit) ? 0 : Math.max(0, result.millisUntilFull());
			CalendarQuota.Window period = (bandwidth instanceof WindowQuota quota) ? quota.window(nowMillis) : null;
			budgets.add(new Budget(policy.bandwidthName(b), policy.dimension(), bandwidth,
					Math.max(0, result.remaining()), resetMillis, period, policy.keyName()));
		}
	}

	private static StatusAnswer refused(Decision.Refusal refusal) {
		return new StatusAnswer.Refused(refusal);
	}

}
