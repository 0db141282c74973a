package io.github.ratelimit.client;

import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.Random;

import org.junit.jupiter.api.Test;
import org.slf4j.Logger;

import io.github.ratelimit.http.HeaderStyle;
import io.github.ratelimit.test.ManualTimeMeter;

import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.anyString;
import static org.mockito.ArgumentMatchers.eq;
import static org.mockito.BDDMockito.given;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.never;
import static org.mockito.Mockito.times;
import static org.mockito.Mockito.verify;

/**
 * The WARN hint when few requests are left: written when a response shows at most
 * {@code warn-remaining-percent} of its limit, at most once a minute per host.
 */
class LoggingClientEventsTests {

	private final ManualTimeMeter clock = new ManualTimeMeter(Instant.parse("2026-01-17T12:34:33Z"));

	private final Logger log = mock(Logger.class);

	private final RateLimitClient client;

	LoggingClientEventsTests() {
		given(this.log.isWarnEnabled()).willReturn(true);
		this.client = new RateLimitClient(ClientRetrySettings.DEFAULTS, this.clock, new Random(1),
				new LoggingClientEvents(this.clock, this.log));
	}

	@Test
	void warnsWhenAtMostTheConfiguredShareIsLeft() {
		respond("https://api.example.com/", 10);

		verify(this.log).warn(anyString(), eq("api.example.com"), eq(10L), eq(100L),
				eq(" of policy 'premium-user-default'"));
	}

	@Test
	void staysQuietWhileMoreIsLeft() {
		respond("https://api.example.com/", 11);

		verify(this.log, never()).warn(anyString(), any(Object[].class));
	}

	@Test
	void warnsAtMostOnceAMinutePerHost() {
		respond("https://api.example.com/", 9);
		this.clock.advance(Duration.ofSeconds(59));
		respond("https://api.example.com/", 8);
		respond("https://other.example.com/", 8);
		verify(this.log, times(2)).warn(anyString(), any(Object[].class));

		this.clock.advance(Duration.ofSeconds(1));
		respond("https://api.example.com/", 7);
		verify(this.log, times(3)).warn(anyString(), any(Object[].class));
	}

	private void respond(String uri, long remaining) {
		ClientCall call = this.client.start("GET", URI.create(uri), false);
		call.beforeSend();
		call.afterResponse(200, ServerResponses.lookup(ServerResponses.userAdmitted(remaining, 30), HeaderStyle.IETF),
				() -> null);
	}

}
