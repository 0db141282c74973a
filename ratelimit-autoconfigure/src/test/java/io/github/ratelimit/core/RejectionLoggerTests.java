package io.github.ratelimit.core;

import io.github.ratelimit.policy.Classification;

import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

import io.github.ratelimit.identity.CallerIdentifier;
import io.github.ratelimit.identity.ClientIpResolver;
import io.github.ratelimit.policy.PolicyTable;
import io.github.ratelimit.storage.memory.InMemoryRateLimitStore;
import io.github.ratelimit.test.ManualTimeMeter;
import io.github.ratelimit.test.TestRequest;

import static org.assertj.core.api.Assertions.assertThat;

class RejectionLoggerTests {

	private final Logger logger = (Logger) LoggerFactory.getLogger("io.github.ratelimit.rejections");

	private final ListAppender<ILoggingEvent> appender = new ListAppender<>();

	private final AtomicLong nanos = new AtomicLong();

	private final RejectionLogger rejectionLogger = new RejectionLogger(3, this.nanos::get);

	private final RateLimiter limiter = new RateLimiter(
			new CallerIdentifier(List.of(), new ClientIpResolver(List.of(), 32, 64), Set.of("anonymous"), "anonymous",
					"anonymous"),
			PolicyTable.build(Map.of("anonymous", Map.of("ip", Map.of("default", "1/1h"))), Map.of(), Set.of(), "rl:"),
			new InMemoryRateLimitStore(100, new ManualTimeMeter()), FailureMode.OPEN, null, Clock.systemUTC());

	@BeforeEach
	void attach() {
		this.appender.start();
		this.logger.addAppender(this.appender);
	}

	@AfterEach
	void detach() {
		this.logger.detachAppender(this.appender);
	}

	private void request() {
		Decision decision = this.limiter.decide(TestRequest.from("198.51.100.4"), Classification.of("default", 1));
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
					"retry_after=3600");
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

}
