package io.github.ratelimit.bench.peer;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.cache.annotation.EnableCaching;

/**
 * The peer of the HTTP load comparison: the benchmark's endpoints limited by
 * bucket4j-spring-boot-starter, in memory (Caffeine through JCache) by default, on Redis (Jedis) with
 * the {@code redis} profile. See bench/README.md.
 */
@SpringBootApplication
@EnableCaching
public class PeerApplication {

	public static void main(String[] args) {
		SpringApplication.run(PeerApplication.class, args);
	}

}
