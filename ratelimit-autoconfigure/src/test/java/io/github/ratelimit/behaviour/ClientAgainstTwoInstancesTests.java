package io.github.ratelimit.behaviour;

import java.time.Clock;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import io.github.ratelimit.behaviour.SpringClient.Answer;
import io.github.ratelimit.behaviour.SpringClient.Caller;
import io.github.ratelimit.client.ClientEvents;
import io.github.ratelimit.client.ClientRetrySettings;
import io.github.ratelimit.client.RateLimitClient;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The client side against two instances of an app on one Redis behind a round-robin load
 * balancer ({@link RoundRobinProxy}): the client sees one host whose budget the instances
 * share, so the holds one instance's answers ask for pace the calls that the other
 * instance serves, and a loop of calls goes through at the shared pace with no refusal.
 */
class ClientAgainstTwoInstancesTests {

	private static final int LIMIT = 5;

	private static final Duration WINDOW = Duration.ofSeconds(2);

	private static final int CALLS = 15;

	@ParameterizedTest
	@EnumSource(SpringClient.class)
	void aLoopThroughALoadBalancerIsPacedByTheBudgetTheInstancesShare(SpringClient kind) {
		// one key prefix for both: they share every bucket, as two instances of one app
		// do
		Map<String, String> properties = new LinkedHashMap<>(Storage.REDIS.properties(getClass().getSimpleName()));
		properties.put("ratelimit.groups.paced.paths[0]", "/client/paced/**");
		properties.put("ratelimit.tiers.anonymous.ip.paced", LIMIT + "/" + WINDOW.toSeconds() + "s fixed");
		String address = "203.0.113.250";
		try (BehaviourApp first = start(properties);
				BehaviourApp second = start(properties);
				RoundRobinProxy balancer = RoundRobinProxy.start(List.of(first.port(), second.port()))) {
			RateLimitClient client = new RateLimitClient(
					ClientRetrySettings.DEFAULTS.withJitter(Duration.ofMillis(250)), Clock.systemUTC(), new Random(),
					ClientEvents.NONE);
			Caller caller = kind.caller("http://127.0.0.1:" + balancer.port(), client, address);
			long started = System.nanoTime();
			for (int i = 1; i <= CALLS; i++) {
				Answer answer = caller.send("GET", "/client/paced/" + i);
				assertThat(answer.status()).as("call %d: %s", i, answer).isEqualTo(200);
			}
			Duration elapsed = Duration.ofNanos(System.nanoTime() - started);
			List<WireLog.Entry> onFirst = first.context().getBean(WireLog.class).from(address);
			List<WireLog.Entry> onSecond = second.context().getBean(WireLog.class).from(address);
			assertThat(onFirst).as("round-robin").isNotEmpty();
			assertThat(onSecond).as("round-robin").isNotEmpty();
			assertThat(onFirst.size() + onSecond.size()).as("no refusal on either instance: %s %s", onFirst, onSecond)
				.isEqualTo(CALLS);
			// two budgets of 5 would let 15 calls through within two windows, the first
			// partly spent: less than one window's length
			assertThat(elapsed).as("the pace of one shared budget").isGreaterThanOrEqualTo(WINDOW);
			assertThat(elapsed).isLessThan(WINDOW.multipliedBy(CALLS / LIMIT + 2));
			assertThat(first.failureModeDecisions() + second.failureModeDecisions()).isZero();
		}
	}

	private static BehaviourApp start(Map<String, String> properties) {
		return BehaviourApp.start(Stack.MVC, properties, CalledApi.class, MvcWireTap.class).awaitStoreConnected();
	}

}
