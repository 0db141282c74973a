package io.github.ratelimit.core;

import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

import io.github.ratelimit.identity.ClientIpResolver;
import io.github.ratelimit.identity.Identifier;
import io.github.ratelimit.identity.Identity;
import io.github.ratelimit.policy.Classification;
import io.github.ratelimit.policy.Dimension;
import io.github.ratelimit.policy.LimitParser;
import io.github.ratelimit.policy.Mode;
import io.github.ratelimit.policy.Policy;
import io.github.ratelimit.policy.PolicyOptions;
import io.github.ratelimit.policy.PolicyOptions.GroupOptions;
import io.github.ratelimit.policy.PolicyOptions.Tuning;
import io.github.ratelimit.policy.PolicyTable;
import io.github.ratelimit.storage.memory.InMemoryRateLimitStore;
import io.github.ratelimit.test.ManualTimeMeter;
import io.github.ratelimit.test.TestRequest;

import static org.assertj.core.api.Assertions.assertThat;

class RejectionLoggerTests {

	private final Logger logger = (Logger) LoggerFactory.getLogger("io.github.ratelimit.rejections");

	private final ListAppender<ILoggingEvent> appender = new ListAppender<>();

	private final Logger warningsLogger = (Logger) LoggerFactory.getLogger("io.github.ratelimit.warnings");

	private final ListAppender<ILoggingEvent> warnings = new ListAppender<>();

	private final Map<Logger, Level> levels = new HashMap<>();

	private final AtomicLong nanos = new AtomicLong();

	private final RejectionLogger rejectionLogger = new RejectionLogger(3, this.nanos::get);

	private final RateLimiter limiter = RateLimiter
		.builder(new Identifier(List.of(), new ClientIpResolver(List.of(), 32, 64), Set.of("anonymous"), "anonymous",
				"anonymous"), new InMemoryRateLimitStore(100, new ManualTimeMeter()))
		.policies(PolicyTable.build(Map.of("anonymous", Map.of("ip", Map.of("default", "1/1h", "soft", "10/1h"))),
				Map.of(), Set.of("observed", "soft"),
				new PolicyOptions(ZoneOffset.UTC, Mode.ENFORCE, 0, Map.of(),
						Map.of("observed", new GroupOptions(new Tuning(Mode.OBSERVE, null), 0, Duration.ZERO), "soft",
								new GroupOptions(new Tuning(null, 80), 0, Duration.ZERO)))))
		.build();

	@BeforeEach
	void attach() {
		attach(this.logger, this.appender);
		attach(this.warningsLogger, this.warnings);
	}

	// an application context started earlier in this JVM may have set the levels
	private void attach(Logger logger, ListAppender<ILoggingEvent> appender) {
		this.levels.put(logger, logger.getLevel());
		logger.setLevel(Level.INFO);
		appender.start();
		logger.addAppender(appender);
	}

	@AfterEach
	void detach() {
		this.logger.detachAppender(this.appender);
		this.warningsLogger.detachAppender(this.warnings);
		this.levels.forEach(Logger::setLevel);
	}

	private void request() {
		request("default");
	}

	private void request(String group) {
		Decision decision = this.limiter.decide(TestRequest.from("198.51.100.4"), Classification.of(group, 1));
		this.rejectionLogger.onDecision(decision, 0);
	}

	@Test
	void logsWhoWasRefusedAndWhy() {
		request();
		assertThat(this.appender.list).isEmpty();
		request();
		assertThat(this.appender.list).singleElement()
			.extracting(ILoggingEvent::getFormattedMessage)
			.asString()
			.contains("outcome=REJECTED", "policy=anonymous-ip-default", "scope=ip", "id=198.51.100.4",
					"retry_after=3600", "answered=store");
	}

	@Test
	void aRefusalAnsweredFromMemorySaysSo() {
		request();
		Decision.Rejected rejected = Decisions
			.rejected(this.limiter.decide(TestRequest.from("198.51.100.4"), Classification.of("default", 1)));
		this.rejectionLogger.onDecision(new Decision.Rejected(rejected.identity(), rejected.classification(),
				rejected.decidedAt(), rejected.limits(), true), 0);
		assertThat(this.appender.list).singleElement()
			.extracting(ILoggingEvent::getFormattedMessage)
			.asString()
			.contains("outcome=REJECTED", "answered=memory");
	}

	@Test
	void aBannedOrDeniedCallerIsNamedAsBansNameIt() {
		Identity caller = new Identity("mallory", null, null, "203.0.113.66", "anonymous", true);
		Decision banned = new Decision.Banned(caller, Classification.of("default", 1),
				Instant.parse("2026-03-01T10:00:00Z"), 1800);
		this.rejectionLogger.onDecision(banned, 0);
		assertThat(this.appender.list).singleElement()
			.extracting(ILoggingEvent::getFormattedMessage)
			.asString()
			.contains("outcome=BANNED", "caller=user:mallory", "retry_after=1800")
			.doesNotContain("null");
	}

	@Test
	void aRefusalWithoutALimitNamesThePolicyOnlyWhenBlockedAndRetryAfterOnlyWhenBanned() {
		Identity caller = new Identity("mallory", null, null, "203.0.113.66", "anonymous", true);
		Classification admin = Classification.of("admin", 1);
		Instant now = Instant.parse("2026-03-01T10:00:00Z");
		Policy blockedBy = new Policy("anonymous", Dimension.IP, "admin", LimitParser.parse("0"));
		this.rejectionLogger.onDecision(new Decision.Denied(caller, admin, now), 0);
		this.rejectionLogger.onDecision(new Decision.Blocked(caller, admin, now, blockedBy), 0);
		this.rejectionLogger.onDecision(new Decision.Unavailable(caller, admin, now), 0);
		assertThat(this.appender.list).extracting(ILoggingEvent::getFormattedMessage)
			.containsExactly(
					"rate limit outcome=DENIED policy=- caller=user:mallory tier=anonymous group=admin retry_after=0 suppressed=0",
					"rate limit outcome=BLOCKED policy=anonymous-ip-admin caller=user:mallory tier=anonymous group=admin retry_after=0 suppressed=0",
					"rate limit outcome=UNAVAILABLE policy=- caller=user:mallory tier=anonymous group=admin retry_after=0 suppressed=0");
	}

	@Test
	void aGeoOrReputationRefusalNamesItsReasonAsThePolicy() {
		Identity caller = Identity.anonymous("203.0.113.66", "anonymous");
		Classification any = Classification.of("default", 1);
		Instant now = Instant.parse("2026-03-01T10:00:00Z");
		this.rejectionLogger.onDecision(new Decision.Denied(caller, any, now, DenialReason.GEO), 0);
		this.rejectionLogger.onDecision(new Decision.Denied(caller, any, now, DenialReason.REPUTATION), 0);
		assertThat(this.appender.list).extracting(ILoggingEvent::getFormattedMessage)
			.containsExactly(
					"rate limit outcome=DENIED policy=geo_blocked caller=ip:203.0.113.66 tier=anonymous group=default retry_after=0 suppressed=0",
					"rate limit outcome=DENIED policy=reputation_denied caller=ip:203.0.113.66 tier=anonymous group=default retry_after=0 suppressed=0");
	}

	@Test
	void aUserNameWithLineBreaksCannotForgeALine() {
		// a JWT's sub is the caller's to choose
		Identity caller = new Identity("eve\r\n2026-03-01 INFO rate limit outcome=ALLOWED id=admin", null, null,
				"203.0.113.66", "anonymous", true);
		Decision banned = new Decision.Banned(caller, Classification.of("default", 1),
				Instant.parse("2026-03-01T10:00:00Z"), 1800);
		this.rejectionLogger.onDecision(banned, 0);
		assertThat(this.appender.list).singleElement()
			.extracting(ILoggingEvent::getFormattedMessage)
			.asString()
			.doesNotContain("\n", "\r")
			.contains("caller=user:eve\\r\\n2026-03-01 INFO");
	}

	@Test
	void aFloodOfRejectionsWritesABoundedNumberOfLines() {
		request();
		for (int i = 0; i < 1000; i++) {
			request();
		}
		assertThat(this.appender.list).hasSize(3);
		this.nanos.addAndGet(1_000_000_000L);
		request();
		assertThat(this.appender.list).hasSize(4);
		assertThat(this.appender.list.get(3).getFormattedMessage()).contains("suppressed=997");
	}

	@Test
	void observedWouldBeRefusalsAreLoggedAsWarningsAndBounded() {
		// the observed group counts against the default limit, 1 an hour, and never
		// refuses
		request("observed");
		assertThat(this.warnings.list).isEmpty();
		for (int i = 0; i < 100; i++) {
			request("observed");
		}
		assertThat(this.appender.list).isEmpty();
		assertThat(this.warnings.list).hasSize(3)
			.first()
			.extracting(ILoggingEvent::getFormattedMessage)
			.asString()
			.contains("would_refuse mode=observe", "policy=anonymous-ip-default", "id=198.51.100.4");
	}

	@Test
	void softLimitIsLoggedFromTheThresholdOn() {
		// 10 an hour, warn-at 80%: 2 left is the threshold
		for (int i = 0; i < 7; i++) {
			request("soft");
		}
		assertThat(this.warnings.list).isEmpty();
		request("soft");
		assertThat(this.warnings.list).singleElement()
			.extracting(ILoggingEvent::getFormattedMessage)
			.asString()
			.contains("near_limit warn_at=80%", "policy=anonymous-ip-soft", "remaining=2");
	}

}
