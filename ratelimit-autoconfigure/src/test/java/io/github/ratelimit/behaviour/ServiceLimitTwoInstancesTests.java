package io.github.ratelimit.behaviour;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.stream.Stream;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.entry;

/**
 * A budget of the service shared by two instances of an app on one Redis (standalone with
 * either strategy, and a Cluster, where the budget's key lives in another slot than the
 * callers' own): a burst from many addresses spread over both instances gets exactly the
 * budget, and the refusals name the service on both.
 */
class ServiceLimitTwoInstancesTests {

	private static final int BUDGET = 40;

	private static final int REQUESTS = 200;

	static Stream<Arguments> stacksAndStores() {
		return Stream.of(Arguments.of(Stack.MVC, Storage.REDIS), Arguments.of(Stack.WEBFLUX, Storage.REDIS),
				Arguments.of(Stack.MVC, Storage.REDIS_CLUSTER), Arguments.of(Stack.WEBFLUX, Storage.REDIS_BUCKET4J));
	}

	@ParameterizedTest
	@MethodSource("stacksAndStores")
	void twoInstancesShareTheServicesBudgetExactly(Stack stack, Storage storage) {
		// one key prefix for both: they share every bucket, as two instances of one app
		// do
		Map<String, String> properties = new LinkedHashMap<>(storage.properties(getClass().getSimpleName()));
		properties.put("ratelimit.service.burst", BUDGET + "/1h");
		try (BehaviourApp first = BehaviourApp.start(stack, properties).awaitStoreConnected();
				BehaviourApp second = BehaviourApp.start(stack, properties).awaitStoreConnected()) {
			BehaviourApp[] apps = { first, second };
			ConcurrentLoad load = ConcurrentLoad.run(REQUESTS,
					(i) -> () -> Http
						.send(apps[i % 2].port(), "GET", "/api/burst", "X-Forwarded-For",
								"198.18." + (i / 200) + "." + (1 + i % 200))
						.status());
			System.out.println(load.report(stack + " " + storage + " two instances, one service budget"));
			assertThat(load.statuses()).containsOnly(entry(200, (long) BUDGET), entry(429, (long) REQUESTS - BUDGET));
			for (BehaviourApp app : apps) {
				Reply refused = Http.send(app.port(), "GET", "/api/burst", "X-Forwarded-For", "198.18.9.9");
				assertThat(refused.status()).as("%s", refused).isEqualTo(429);
				assertThat(refused.json().get("scope").asString()).isEqualTo("service");
				assertThat(refused.json().get("violated-policies").get(0).asString()).isEqualTo("service-burst");
				assertThat(app.failureModeDecisions()).as("decisions that got the failure mode").isZero();
			}
		}
	}

}
