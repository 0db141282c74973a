package io.github.ratelimit.sample;

import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.github.ratelimit.test.redis.RedisTestServer;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Two instances of the sample app on the 'redis' profile share one real Redis: hit
 * concurrently from both, together they admit exactly the limit (50 anonymous logins a
 * minute), not 50 each; and a caller's concurrency permits are leases both instances see.
 */
class TwoInstancesShareRedisTests {

	private final SampleInstances instances = new SampleInstances("redis");

	@AfterEach
	void stop() {
		this.instances.close();
	}

	// the sample's own settings otherwise: a burst must be decided exactly with the
	// defaults
	private int start(String keyPrefix) {
		return this.instances.start(keyPrefix);
	}

	@Test
	void twoInstancesSharingOneRedisAdmitExactlyTheLimitTogether() throws Exception {
		String keyPrefix = RedisTestServer.uniqueKeyPrefix("two-instances");
		int[] ports = { start(keyPrefix), start(keyPrefix) };
		Map<Integer, AtomicInteger> statuses = new ConcurrentHashMap<>();
		ExecutorService pool = Executors.newFixedThreadPool(32);
		CountDownLatch go = new CountDownLatch(1);
		List<Future<?>> futures = new ArrayList<>();
		for (int i = 0; i < 200; i++) {
			int port = ports[i % 2];
			futures.add(pool.submit(() -> {
				go.await();
				int status = Http.send("POST", "http://127.0.0.1:" + port + "/v1/auth/login").statusCode();
				statuses.computeIfAbsent(status, (key) -> new AtomicInteger()).incrementAndGet();
				return null;
			}));
		}
		go.countDown();
		for (Future<?> future : futures) {
			future.get(60, TimeUnit.SECONDS);
		}
		pool.shutdown();
		assertThat(statuses.keySet()).containsOnly(200, 429);
		assertThat(statuses.get(200)).hasValue(50);
		assertThat(statuses.get(429)).hasValue(150);
	}

	@Test
	void exportPermitsAreSharedLeasesAcrossInstances() throws Exception {
		String keyPrefix = RedisTestServer.uniqueKeyPrefix("two-instances-export");
		int[] ports = { start(keyPrefix), start(keyPrefix) };
		// erin may have 2 exports in flight, whichever instance runs them: both slow ones
		// on the first...
		List<CompletableFuture<HttpResponse<String>>> slow = new ArrayList<>();
		for (int i = 0; i < 2; i++) {
			slow.add(CompletableFuture.supplyAsync(() -> Http.send("GET",
					"http://127.0.0.1:" + ports[0] + "/v1/export?millis=3000", "X-API-Key", "demo-enterprise-key")));
		}
		// ...so the second refuses a third while they run
		int refusedStatus = 0;
		for (int attempt = 0; attempt < 50 && refusedStatus != 429; attempt++) {
			Thread.sleep(50);
			refusedStatus = Http
				.send("GET", "http://127.0.0.1:" + ports[1] + "/v1/export?millis=0", "X-API-Key", "demo-enterprise-key")
				.statusCode();
		}
		assertThat(refusedStatus).as("a third export on the other instance while two run").isEqualTo(429);
		for (CompletableFuture<HttpResponse<String>> export : slow) {
			assertThat(export.get(30, TimeUnit.SECONDS).statusCode()).isEqualTo(200);
		}
		// the leases were given back when the exports completed
		assertThat(Http
			.send("GET", "http://127.0.0.1:" + ports[1] + "/v1/export?millis=0", "X-API-Key", "demo-enterprise-key")
			.statusCode()).isEqualTo(200);
	}

}
