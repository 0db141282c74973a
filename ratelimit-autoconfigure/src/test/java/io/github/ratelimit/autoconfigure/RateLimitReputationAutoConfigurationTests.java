package io.github.ratelimit.autoconfigure;

import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;

import io.github.ratelimit.core.AddressGate;
import io.github.ratelimit.core.DenialReason;
import io.github.ratelimit.core.RateLimiter;
import io.github.ratelimit.identity.AddressBits;
import io.github.ratelimit.policy.Classification;
import io.github.ratelimit.reputation.ReputationLists;
import io.github.ratelimit.test.TestRequest;

import static io.github.ratelimit.autoconfigure.StartFailures.assertStartFailure;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Reputation lists' beans: absent without a list, read when the context starts, deny
 * lists guarding the gate and tier lists holding anonymous callers to their tier, and
 * start failures that name {@code ratelimit.reputation.*}.
 */
class RateLimitReputationAutoConfigurationTests {

	private final WebApplicationContextRunner runner = new WebApplicationContextRunner()
		.withConfiguration(
				AutoConfigurations.of(RateLimitAutoConfiguration.class, RateLimitReputationAutoConfiguration.class))
		.withPropertyValues("ratelimit.tiers.anonymous.ip.default=10/1m", "ratelimit.tiers.suspicious.ip.default=1/1m");

	@TempDir
	Path dir;

	private String list(String name, String text) throws Exception {
		return "file:" + Files.writeString(this.dir.resolve(name), text);
	}

	@Test
	void noListsNoBeans() {
		this.runner.run((context) -> {
			assertThat(context).hasNotFailed();
			assertThat(context).doesNotHaveBean(ReputationLists.class);
			assertThat(context.getBean(AddressGate.class).active()).isFalse();
		});
	}

	@Test
	void aDenyListIsReadAtStartAndGuardsTheGate() throws Exception {
		this.runner
			.withPropertyValues("ratelimit.reputation.lists.drop.source=" + list("drop.txt", "203.0.113.0/24 ; SBL1\n"))
			.run((context) -> {
				assertThat(context).hasNotFailed();
				assertThat(context.getBean(ReputationLists.class).screen(AddressBits.parse("203.0.113.7")))
					.isEqualTo(DenialReason.REPUTATION);
				assertThat(context.getBean(AddressGate.class).active()).isTrue();
			});
	}

	@Test
	void aTierListHoldsAnonymousCallersToItsTier() throws Exception {
		this.runner
			.withPropertyValues("ratelimit.reputation.lists.tor.source=" + list("tor.txt", "203.0.113.7\n"),
					"ratelimit.reputation.lists.tor.tier=suspicious")
			.run((context) -> {
				assertThat(context).hasNotFailed();
				assertThat(context.getBean(AddressGate.class).active()).isFalse();
				RateLimiter limiter = context.getBean(RateLimiter.class);
				Classification any = Classification.of("default", 1);
				assertThat(limiter.decide(TestRequest.from("203.0.113.7"), any).identity().tier())
					.isEqualTo("suspicious");
				assertThat(limiter.decide(TestRequest.from("203.0.113.8"), any).identity().tier())
					.isEqualTo("anonymous");
			});
	}

	@Test
	void anUnreadableListAtStartHoldsNothingAndDoesNotStopTheStart() {
		this.runner.withPropertyValues("ratelimit.reputation.lists.drop.source=file:" + this.dir.resolve("missing.txt"))
			.run((context) -> {
				assertThat(context).hasNotFailed();
				assertThat(context.getBean(ReputationLists.class).screen(AddressBits.parse("203.0.113.7"))).isNull();
			});
	}

	@Test
	void aListWithoutSourceStopsTheStart() {
		this.runner.withPropertyValues("ratelimit.reputation.lists.drop.max-entries=10")
			.run((context) -> assertStartFailure(context, "ratelimit.reputation.lists.drop.source", "",
					"https://www.spamhaus.org/drop/drop.txt"));
	}

	@Test
	void anUnknownTierStopsTheStart() throws Exception {
		this.runner
			.withPropertyValues("ratelimit.reputation.lists.tor.source=" + list("tor.txt", "203.0.113.7\n"),
					"ratelimit.reputation.lists.tor.tier=shady")
			.run((context) -> assertStartFailure(context, "ratelimit.reputation.lists.tor.tier", "shady",
					"suspicious"));
	}

	@Test
	void aTooShortIntervalOrBoundStopsTheStart() throws Exception {
		String source = list("drop.txt", "203.0.113.0/24\n");
		this.runner
			.withPropertyValues("ratelimit.reputation.lists.drop.source=" + source,
					"ratelimit.reputation.lists.drop.refresh-interval=10ms")
			.run((context) -> assertStartFailure(context, "ratelimit.reputation.lists.drop.refresh-interval", "PT0.01S",
					"1h"));
		this.runner
			.withPropertyValues("ratelimit.reputation.lists.drop.source=" + source,
					"ratelimit.reputation.lists.drop.max-entries=0")
			.run((context) -> assertStartFailure(context, "ratelimit.reputation.lists.drop.max-entries", "0",
					"100000"));
	}

}
