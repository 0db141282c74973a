package io.github.ratelimit.http;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Locale;
import java.util.Map;

import org.jspecify.annotations.Nullable;

import io.github.ratelimit.core.status.Budget;
import io.github.ratelimit.core.status.CallerStanding;
import io.github.ratelimit.core.status.GroupStanding;
import io.github.ratelimit.identity.Identity;
import io.github.ratelimit.policy.CalendarQuota;

/**
 * Writes a caller's standing as the JSON body of the status endpoint, without a JSON
 * library (strings escaped as in the problem body, so the body is plain ASCII):
 *
 * <pre class="code">
 * { "identity": { "authenticated": true, "tier": "premium", "user": "alice", "org": "acme",
 *                 "ip": "203.0.113.7" },
 *   "read_at": "2026-05-14T10:15:30Z",
 *   "groups": {
 *     "default": { "cost": 1, "blocked": false, "policies": [
 *       { "name": "premium-user-default", "scope": "user", "kind": "rate", "limit": "100/1m",
 *         "quota": 100, "window": 60, "remaining": 97, "reset": 2,
 *         "reset_at": "2026-05-14T10:15:32Z" } ] } } }
 * </pre>
 *
 * Every member is always there but those of one kind of limit: {@code burst} for a token
 * bucket that may hold more than its quota, {@code period} for a calendar quota (and the
 * current window of a fixed window), {@code in_use} for a concurrency cap (which has no
 * {@code window}, {@code reset} or {@code reset_at}). {@code kind} is {@code rate} (token
 * bucket), {@code quota}, {@code concurrency}, {@code fixed_window},
 * {@code sliding_window} or {@code leaky_bucket}. A token is never shown, not even its
 * hash.
 */
public final class CallerStatusBody {

	/** The media type of the body. */
	public static final String CONTENT_TYPE = "application/json";

	private CallerStatusBody() {
	}

	/**
	 * Writes a standing.
	 * @param standing the caller's standing
	 * @return the body, ASCII and therefore also UTF-8
	 */
	public static byte[] write(CallerStanding standing) {
		StringBuilder json = new StringBuilder(256 + 256 * standing.groups().size());
		json.append("{\"identity\":");
		identity(json, standing.identity(), standing.keys());
		json.append(",\"read_at\":");
		instant(json, standing.readAt());
		json.append(",\"groups\":{");
		boolean first = true;
		for (Map.Entry<String, GroupStanding> group : standing.groups().entrySet()) {
			if (!first) {
				json.append(',');
			}
			first = false;
			JsonWriter.appendString(json, group.getKey()).append(':');
			group(json, group.getValue(), standing.readAt());
		}
		return json.append("}}").toString().getBytes(StandardCharsets.US_ASCII);
	}

	private static void identity(StringBuilder json, Identity identity, Map<String, String> keys) {
		json.append("{\"authenticated\":").append(identity.authenticated());
		json.append(",\"tier\":");
		JsonWriter.appendString(json, identity.tier());
		json.append(",\"user\":");
		nullableString(json, identity.user());
		json.append(",\"org\":");
		nullableString(json, identity.org());
		json.append(",\"ip\":");
		JsonWriter.appendString(json, identity.ip());
		if (!keys.isEmpty()) {
			// the values of the request that key limits count it by
			json.append(",\"keys\":{");
			boolean first = true;
			for (Map.Entry<String, String> key : keys.entrySet()) {
				if (!first) {
					json.append(',');
				}
				first = false;
				JsonWriter.appendString(json, key.getKey()).append(':');
				JsonWriter.appendString(json, key.getValue());
			}
			json.append('}');
		}
		json.append('}');
	}

	private static void group(StringBuilder json, GroupStanding group, Instant readAt) {
		json.append("{\"cost\":").append(group.cost());
		json.append(",\"blocked\":").append(group.blocked());
		json.append(",\"policies\":[");
		for (int i = 0; i < group.budgets().size(); i++) {
			if (i > 0) {
				json.append(',');
			}
			budget(json, group.budgets().get(i), readAt);
		}
		json.append("]}");
	}

	private static void budget(StringBuilder json, Budget budget, Instant readAt) {
		Budget.Kind kind = budget.kind();
		json.append("{\"name\":");
		JsonWriter.appendString(json, budget.name());
		json.append(",\"scope\":");
		JsonWriter.appendString(json, budget.scopeName());
		json.append(",\"kind\":");
		JsonWriter.appendString(json, kind.name().toLowerCase(Locale.ROOT));
		json.append(",\"limit\":");
		JsonWriter.appendString(json, budget.limit());
		json.append(",\"quota\":").append(budget.quota());
		if (budget.bursts()) {
			json.append(",\"burst\":").append(budget.capacity());
		}
		if (kind != Budget.Kind.CONCURRENCY) {
			json.append(",\"window\":").append(budget.bandwidth().windowSeconds());
		}
		json.append(",\"remaining\":").append(budget.remaining());
		if (kind == Budget.Kind.CONCURRENCY) {
			json.append(",\"in_use\":").append(budget.inUse());
		}
		else {
			json.append(",\"reset\":").append(budget.resetSeconds());
			json.append(",\"reset_at\":");
			instant(json, budget.resetAt(readAt));
		}
		CalendarQuota.Window period = budget.period();
		if (period != null) {
			json.append(",\"period\":{\"start\":");
			instant(json, Instant.ofEpochMilli(period.start()));
			json.append(",\"end\":");
			instant(json, Instant.ofEpochMilli(period.end()));
			json.append('}');
		}
		json.append('}');
	}

	private static void nullableString(StringBuilder json, @Nullable String value) {
		if (value == null) {
			json.append("null");
		}
		else {
			JsonWriter.appendString(json, value);
		}
	}

	private static void instant(StringBuilder json, Instant instant) {
		JsonWriter.appendString(json, instant.truncatedTo(ChronoUnit.SECONDS).toString());
	}

}
