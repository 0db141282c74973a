package io.github.ratelimit.behaviour;

import java.util.LinkedHashMap;
import java.util.Map;

import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import io.github.ratelimit.storage.memory.InMemoryRateLimitStore;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 17 over real HTTP, on each web stack with buckets in memory: anonymous traffic
 * from one IPv6 /48, every /64 a new client, far past a small address bound, leaves a
 * user's spent budget and an org's monthly quota as they were. Only the address buckets
 * are evicted.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class AddressFloodBehaviourTests {

	private static final int MAX_KEYS = 10;

	private final Stack stack;

	private @Nullable BehaviourApp app;

	AddressFloodBehaviourTests(Stack stack) {
		this.stack = stack;
	}

	@BeforeAll
	void startApp() {
		Map<String, String> properties = new LinkedHashMap<>(Storage.MEMORY.properties(getClass().getSimpleName()));
		properties.put("ratelimit.storage.memory.max-keys", String.valueOf(MAX_KEYS));
		properties.put("ratelimit.identity.api-keys[0].key", "flood-key-fay");
		properties.put("ratelimit.identity.api-keys[0].user", "fay");
		properties.put("ratelimit.identity.api-keys[0].tier", "hourly");
		properties.put("ratelimit.identity.api-keys[1].key", "flood-key-finn");
		properties.put("ratelimit.identity.api-keys[1].user", "finn");
		properties.put("ratelimit.identity.api-keys[1].org", "flood-org");
		properties.put("ratelimit.identity.api-keys[1].tier", "prepaid");
		properties.put("ratelimit.tiers.hourly.user.default", "3/1h");
		properties.put("ratelimit.tiers.prepaid.quota.org", "20/month");
		this.app = BehaviourApp.start(this.stack, properties);
	}

	@AfterAll
	void stopApp() {
		if (this.app != null) {
			this.app.close();
		}
	}

	@Test
	void aFloodOfSlash64sLeavesAUsersSpentBudgetAndAnOrgsQuotaAsTheyWere() {
		String[] fay = { "X-Forwarded-For", "203.0.113.61", "X-API-Key", "flood-key-fay" };
		String[] finn = { "X-Forwarded-For", "203.0.113.62", "X-API-Key", "flood-key-finn" };
		for (int i = 0; i < 3; i++) {
			assertThat(get(fay).status()).isEqualTo(200);
		}
		assertThat(get(fay).status()).isEqualTo(429);
		for (int i = 1; i <= 5; i++) {
			Reply reply = get(finn);
			assertThat(reply.status()).isEqualTo(200);
			assertThat(reply.remaining()).as("%s", reply).isEqualTo(20 - i);
		}
		// 150 /64s of one /48, each spending its budget as an attacker does: 300 address
		// buckets (the tier's and
		// the backstop) into 10
		for (int i = 0; i < 150; i++) {
			String[] stranger = { "X-Forwarded-For", "2001:db8:f100:" + Integer.toHexString(i) + "::1" };
			for (int request = 0; request < 6; request++) {
				get(stranger);
			}
		}
		Reply refused = get(fay);
		assertThat(refused.status()).as("the user's spent hour: %s", refused).isEqualTo(429);
		Reply quota = get(finn);
		assertThat(quota.status()).isEqualTo(200);
		assertThat(quota.remaining()).as("the org's monthly quota: %s", quota).isEqualTo(20 - 6);
		InMemoryRateLimitStore store = app().context().getBean(InMemoryRateLimitStore.class);
		store.cleanUp();
		assertThat(store.addressSize()).isLessThanOrEqualTo(MAX_KEYS);
	}

	private BehaviourApp app() {
		assertThat(this.app).isNotNull();
		return this.app;
	}

	private Reply get(String... headers) {
		return Http.send(app().port(), "GET", "/api/hello", headers);
	}

}
