package io.github.ratelimit.behaviour;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.UnaryOperator;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.jspecify.annotations.Nullable;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

/**
 * Golden responses: a fixed script of requests, each response rendered as text (status
 * line, the headers a user of the library sees from the limiter, the body) and compared
 * with the text recorded in {@code src/test/resources/golden/<stack>-responses.txt}, so
 * that a refactoring keeps every one of those header and body bytes the same on both web
 * stacks.
 * <p>
 * Every case speaks from a client address of its own ({@code X-Forwarded-For} through the
 * trusted {@code 127.0.0.1}), on an app of its own per stack with buckets in memory: the
 * behaviour profile plus a daily quota ({@code /api/whoami}), a soft limit
 * ({@code /api/burst}), a ban after one refusal ({@code /api/reports/**}) and a deny rule
 * ({@code 198.18.78.0/24}). The profile sends the default header styles ({@code ietf} and
 * {@code x-ratelimit}); it enables no legacy style ({@code split}, {@code draft7}).
 * <p>
 * Only what varies from run to run is normalised, each after it is checked:
 * <ul>
 * <li>a generated {@code X-Request-Id} (the request sent none, or one that is not sane),
 * 16 lower-case hex digits ({@code RequestIds#generate}), becomes {@code <generated-id>}
 * wherever it appears, header and body;</li>
 * <li>{@code reset_at} in bodies, a moment of the clock, becomes {@code <reset_at>} once
 * it is an ISO instant in whole seconds that agrees with {@code retry_after};</li>
 * <li>in the calendar-quota case only, the seconds until the next UTC midnight (the
 * quota's reset, which moves with the clock) become {@code <until-midnight>} once they
 * lie between the values computed before and after the request. Token-bucket resets are
 * not normalised: with windows of an hour they are the whole time a token takes to come
 * back (ceiling of the seconds), the same on every run;</li>
 * <li>{@code timestamp} in Spring Boot's error body (MVC's 401 for a wrong password,
 * written by Spring Security and Boot, not by the limiter) becomes {@code <timestamp>}
 * once it is an instant between the request and its response.</li>
 * </ul>
 * Where the stacks differ, their files differ: WebFlux closes the connection after the
 * gate's refusals (deny rule, ban), and Spring Security answers a wrong password
 * differently on each stack. On both, that 401 carries no {@code X-Request-Id}: it is
 * answered before the limiter's filter runs.
 * <p>
 * To record again, after checking that a change of the responses is intended:
 * {@code mvn -pl ratelimit-autoconfigure test -Dtest=GoldenResponsesTests -Dgolden.record=true};
 * the test then writes both files and fails, so that recording never passes silently.
 */
class GoldenResponsesTests {

	private static final Path GOLDEN = Path.of("src", "test", "resources", "golden");

	/**
	 * The headers a user sees from the limiter; any other rate-limit header found is
	 * rendered too.
	 */
	private static final List<String> HEADERS = List.of("Cache-Control", "Connection", "Content-Type", "RateLimit",
			"RateLimit-Limit", "RateLimit-Policy", "RateLimit-Remaining", "RateLimit-Reset", "RateLimit-Warning",
			"Retry-After", "WWW-Authenticate", "X-RateLimit-Limit", "X-RateLimit-Remaining", "X-RateLimit-Reset",
			"X-Request-Id");

	private static final Pattern GENERATED_ID = Pattern.compile("[0-9a-f]{16}");

	private static final Pattern RESET_AT = Pattern.compile("\"reset_at\":\"([^\"]*)\"");

	private static final Pattern TIMESTAMP = Pattern.compile("\"timestamp\":\"([^\"]*)\"");

	private static final Pattern RETRY_AFTER_MEMBER = Pattern.compile("\"retry_after\":(\\d+)");

	private static final Pattern WHOLE_SECONDS_INSTANT = Pattern.compile("\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}Z");

	/** Where seconds until a reset appear in a rendered response. */
	private static final List<Pattern> RESET_SECONDS = List.of(Pattern.compile("(;t=)(\\d+)"),
			Pattern.compile("(\\n< Retry-After: )(\\d+)"), Pattern.compile("(\\n< X-RateLimit-Reset: )(\\d+)"),
			Pattern.compile("(\"retry_after\":)(\\d+)"), Pattern.compile("(Retry after )(\\d+)"));

	@ParameterizedTest
	@EnumSource(Stack.class)
	void everyResponseIsTheRecordedOne(Stack stack) throws IOException {
		int blockingMark = BlockingCallDetector.mark();
		String rendered;
		try (BehaviourApp app = BehaviourApp.start(stack, properties())) {
			rendered = new Script(app.port()).run();
		}
		assertThat(BlockingCallDetector.caughtSince(blockingMark)).as("blocking calls on non-blocking threads")
			.isEmpty();
		Path file = GOLDEN.resolve(stack.name().toLowerCase(Locale.ROOT) + "-responses.txt");
		if (Boolean.getBoolean("golden.record")) {
			assertThat(Path.of("src", "test", "resources")).as("the module directory as working directory")
				.isDirectory();
			Files.createDirectories(GOLDEN);
			Files.writeString(file, rendered, StandardCharsets.UTF_8);
			fail("recorded, run again: " + file.toAbsolutePath());
		}
		assertThat(file).as("golden file (record it with -Dgolden.record=true)").exists();
		String expected = Files.readString(file, StandardCharsets.UTF_8);
		assertThat(rendered)
			.as("responses on %s against %s (re-record with -Dgolden.record=true once a change is " + "intended)%n%s",
					stack, file, firstDifference(expected, rendered))
			.isEqualTo(expected);
	}

	private static Map<String, String> properties() {
		Map<String, String> properties = new LinkedHashMap<>(Storage.MEMORY.properties("GoldenResponsesTests"));
		// a calendar quota: 2 a day per address
		properties.put("ratelimit.groups.daily.paths[0]", "/api/whoami");
		properties.put("ratelimit.tiers.anonymous.ip.daily", "2/day");
		// a soft limit: warned from half of 4 an hour used
		properties.put("ratelimit.tiers.anonymous.ip.burst", "4/1h");
		properties.put("ratelimit.groups.burst.warn-at", "50%");
		// a ban: one refusal in the reports group bans the caller for an hour
		properties.put("ratelimit.tiers.anonymous.ip.reports", "1/1h");
		properties.put("ratelimit.groups.reports.bans.refusals", "1");
		properties.put("ratelimit.groups.reports.bans.duration", "1h");
		properties.put("ratelimit.access.deny[0]", "198.18.78.0/24");
		return properties;
	}

	/**
	 * A generated request id replaced: when the response's id is not the sane one the
	 * request sent, it must be a fresh one (16 lower-case hex digits), and it is replaced
	 * wherever the response carries it.
	 */
	private static String generatedId(Exchange exchange, String text) {
		@Nullable String sent = null;
		for (int i = 0; i < exchange.headers().length; i += 2) {
			if (exchange.headers()[i].equalsIgnoreCase("X-Request-Id")) {
				sent = exchange.headers()[i + 1];
			}
		}
		String id = exchange.reply().header("X-Request-Id").orElse(null);
		if (id == null || id.equals(sent)) {
			return text;
		}
		assertThat(id).as("a generated X-Request-Id (the request sent %s)", sent).matches(GENERATED_ID);
		return text.replace(id, "<generated-id>");
	}

	/**
	 * {@code reset_at} replaced, once it is an ISO instant in whole seconds at most a
	 * second after {@code retry_after} from the moment the request was sent and before
	 * that from when it was answered.
	 */
	private static String resetAt(Exchange exchange, String text) {
		Matcher matcher = RESET_AT.matcher(text);
		if (!matcher.find()) {
			return text;
		}
		String value = matcher.group(1);
		assertThat(value).as("reset_at").matches(WHOLE_SECONDS_INSTANT);
		Matcher retryAfter = RETRY_AFTER_MEMBER.matcher(exchange.reply().body());
		assertThat(retryAfter.find()).as("retry_after next to reset_at: %s", exchange.reply().body()).isTrue();
		long seconds = Long.parseLong(retryAfter.group(1));
		Instant resetAt;
		try {
			resetAt = Instant.parse(value);
		}
		catch (DateTimeParseException ex) {
			throw new AssertionError("reset_at is no instant: " + value, ex);
		}
		assertThat(resetAt).as("reset_at of retry_after %d", seconds)
			.isBetween(exchange.sentAt().plusSeconds(seconds - 1), exchange.receivedAt().plusSeconds(seconds + 1));
		return matcher.replaceFirst("\"reset_at\":\"<reset_at>\"");
	}

	/**
	 * The {@code timestamp} of Spring Boot's error body (the MVC 401 of Spring Security,
	 * not the limiter's) replaced, once it is an ISO instant between the request and its
	 * response.
	 */
	private static String timestamp(Exchange exchange, String text) {
		Matcher matcher = TIMESTAMP.matcher(text);
		if (!matcher.find()) {
			return text;
		}
		Instant timestamp;
		try {
			timestamp = Instant.parse(matcher.group(1));
		}
		catch (DateTimeParseException ex) {
			throw new AssertionError("timestamp is no instant: " + matcher.group(1), ex);
		}
		assertThat(timestamp).as("timestamp")
			.isBetween(exchange.sentAt().minusSeconds(1), exchange.receivedAt().plusSeconds(1));
		return matcher.replaceFirst("\"timestamp\":\"<timestamp>\"");
	}

	/**
	 * Seconds until a reset at the next UTC midnight replaced, where they lie in
	 * {@code [low, high]}.
	 */
	private static String untilMidnight(String text, long low, long high) {
		String result = text;
		for (Pattern pattern : RESET_SECONDS) {
			Matcher matcher = pattern.matcher(result);
			StringBuilder replaced = new StringBuilder();
			while (matcher.find()) {
				long seconds = Long.parseLong(matcher.group(2));
				String value = (seconds >= low && seconds <= high) ? "<until-midnight>" : matcher.group(2);
				matcher.appendReplacement(replaced, Matcher.quoteReplacement(matcher.group(1) + value));
			}
			matcher.appendTail(replaced);
			result = replaced.toString();
		}
		return result;
	}

	private static long secondsUntilUtcMidnight(Instant now) {
		Instant midnight = LocalDate.ofInstant(now, ZoneOffset.UTC)
			.plusDays(1)
			.atStartOfDay(ZoneOffset.UTC)
			.toInstant();
		return (midnight.toEpochMilli() - now.toEpochMilli() + 999) / 1000;
	}

	private static String basic(String user, String password) {
		return "Basic " + Base64.getEncoder().encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8));
	}

	/**
	 * The first line where two texts differ, with the lines around it, for a readable
	 * failure.
	 */
	private static String firstDifference(String expected, String actual) {
		String[] want = expected.split("\n", -1);
		String[] got = actual.split("\n", -1);
		int line = 0;
		while (line < want.length && line < got.length && want[line].equals(got[line])) {
			line++;
		}
		if (line == want.length && line == got.length) {
			return "(no difference)";
		}
		StringBuilder message = new StringBuilder("first difference at line ").append(line + 1).append(":\n");
		for (int i = Math.max(0, line - 3); i < Math.min(Math.max(want.length, got.length), line + 4); i++) {
			String w = (i < want.length) ? want[i] : "<end>";
			String g = (i < got.length) ? got[i] : "<end>";
			message.append(w.equals(g) ? "    " : "  - ").append(w).append('\n');
			if (!w.equals(g)) {
				message.append("  + ").append(g).append('\n');
			}
		}
		return message.toString();
	}

	/**
	 * The script: each case from an address of its own, its responses rendered in order.
	 */
	private static final class Script {

		private final int port;

		private final StringBuilder out = new StringBuilder();

		Script(int port) {
			this.port = port;
		}

		String run() {
			section("01 admitted, no X-Request-Id sent: a generated one");
			render(get("198.18.77.1", "/api/hello"));

			section("02 anonymous address limit 5/1h: five admitted, the fifth spends the last token, then 429");
			for (int i = 1; i <= 6; i++) {
				render(get("198.18.77.2", "/api/hello", "X-Request-Id", "golden-02-" + i));
			}

			section("03 user limit 4/1h of premium user paula (HTTP Basic): four admitted, then 429");
			for (int i = 1; i <= 5; i++) {
				render(get("198.18.77.3", "/api/hello", "X-Request-Id", "golden-03-" + i, "Authorization",
						basic(BehaviourUsers.PAULA.username(), BehaviourUsers.PAULA.password())));
			}

			section("04 API key of premium user tina");
			render(get("198.18.77.4", "/api/hello", "X-Request-Id", "golden-04", "X-API-Key", "tiers-key-tina"));

			section("05 calendar quota 2/day (group daily): two admitted, then 429 quota_exceeded");
			for (int i = 1; i <= 3; i++) {
				long before = secondsUntilUtcMidnight(Instant.now());
				Exchange exchange = get("198.18.77.5", "/api/whoami", "X-Request-Id", "golden-05-" + i);
				long after = secondsUntilUtcMidnight(exchange.receivedAt());
				render(exchange, (text) -> untilMidnight(text, after, before + 1));
			}

			section("06 blocked tier: anonymous may not call the admin group (limit 0), 403 tier_not_allowed");
			render(get("198.18.77.6", "/api/admin/stats", "X-Request-Id", "golden-06"));

			section("07 deny rule 198.18.78.0/24: 403 access_denied");
			render(get("198.18.78.7", "/api/hello", "X-Request-Id", "golden-07"));

			section("08 ban after one refusal in the reports group (1/1h): admitted, 429, then 403 banned");
			render(get("198.18.77.8", "/api/reports/1", "X-Request-Id", "golden-08-1"));
			render(get("198.18.77.8", "/api/reports/2", "X-Request-Id", "golden-08-2"));
			render(awaitBan("198.18.77.8", "/api/reports/3", "X-Request-Id", "golden-08-3"));

			section("09 excluded path (ratelimit.exclude-paths /actuator/**): no limiter headers");
			render(get("198.18.77.9", "/actuator/health", "X-Request-Id", "golden-09"));

			section("10 exempt handler (@RateLimited(exempt = true)): no limiter headers");
			render(get("198.18.77.10", "/api/annotated/ping", "X-Request-Id", "golden-10"));

			section("11 soft limit: group burst 4/1h with warn-at 50%, RateLimit-Warning from the second on");
			for (int i = 1; i <= 3; i++) {
				render(get("198.18.77.11", "/api/burst", "X-Request-Id", "golden-11-" + i));
			}

			section("12 malformed X-Request-Id: replaced by a generated one");
			render(get("198.18.77.12", "/api/hello", "X-Request-Id", "not a sane id!"));

			section("13 wrong password (HTTP Basic): Spring Security's 401");
			render(get("198.18.77.13", "/api/hello", "X-Request-Id", "golden-13", "Authorization",
					basic(BehaviourUsers.PAULA.username(), "wrong")));

			section("14 annotated handler: group export, cost 5 of 20/1h");
			render(get("198.18.77.14", "/api/annotated/export", "X-Request-Id", "golden-14"));
			return this.out.toString();
		}

		private void section(String title) {
			this.out.append("### ").append(title).append("\n\n");
		}

		private Exchange get(String address, String path, String... headers) {
			String[] all = new String[headers.length + 2];
			all[0] = "X-Forwarded-For";
			all[1] = address;
			System.arraycopy(headers, 0, all, 2, headers.length);
			Instant sentAt = Instant.now();
			Reply reply = Http.send(this.port, "GET", path, all);
			return new Exchange(path, all, reply, sentAt, Instant.now());
		}

		/**
		 * A memory store records a ban as it refuses, but the refusal may be counted just
		 * after its response: asks again until banned, and renders only the banned
		 * response.
		 */
		private Exchange awaitBan(String address, String path, String... headers) {
			long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
			while (true) {
				Exchange exchange = get(address, path, headers);
				if (exchange.reply().status() == 403 || System.nanoTime() > deadline) {
					return exchange;
				}
				LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(20));
			}
		}

		private void render(Exchange exchange) {
			render(exchange, UnaryOperator.identity());
		}

		private void render(Exchange exchange, UnaryOperator<String> normalisation) {
			StringBuilder text = new StringBuilder();
			text.append("> GET ").append(exchange.path()).append('\n');
			String[] sent = exchange.headers();
			for (int i = 0; i < sent.length; i += 2) {
				text.append("> ").append(sent[i]).append(": ").append(sent[i + 1]).append('\n');
			}
			Reply reply = exchange.reply();
			text.append("< HTTP/1.1 ").append(reply.status()).append('\n');
			Map<String, List<String>> shown = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
			reply.headers().forEach((name, values) -> {
				String known = HEADERS.stream().filter(name::equalsIgnoreCase).findFirst().orElse(null);
				if (known != null) {
					shown.put(known, values);
				}
				else if (name.startsWith("ratelimit") || name.startsWith("x-ratelimit")) {
					shown.put(name, values);
				}
			});
			shown.forEach((name, values) -> values
				.forEach((value) -> text.append("< ").append(name).append(": ").append(value).append('\n')));
			text.append('\n').append(reply.body()).append("\n\n");
			String rendered = generatedId(exchange, text.toString());
			rendered = resetAt(exchange, rendered);
			rendered = timestamp(exchange, rendered);
			this.out.append(normalisation.apply(rendered));
		}

	}

	/**
	 * A request of the script and its response.
	 *
	 * @param path the path
	 * @param headers the request's header names and values, alternating
	 * @param reply the response
	 * @param sentAt when the request was sent
	 * @param receivedAt when the response was read
	 */
	private record Exchange(String path, String[] headers, Reply reply, Instant sentAt, Instant receivedAt) {
	}

}
