package io.github.ratelimit.bench.floor;

import java.io.IOException;
import java.util.List;

import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.springframework.core.io.ClassPathResource;
import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.data.redis.core.script.RedisScript;

/**
 * A bare one-trip filter: per request nothing, one blocking {@code PING}, or one blocking
 * {@code EVALSHA} of {@code floor-token-bucket.lua} keyed by the client address, all
 * through Spring Data Redis ({@link StringRedisTemplate} on Boot's Lettuce connection
 * factory, one shared connection); or, with no trip, one token from each of the address's
 * two local buckets ({@link FloorBuckets}). No identity rules, headers, metrics or failure
 * handling: what is left is the price of the trip, or of the buckets, itself.
 */
final class FloorFilter implements Filter {

	/** Far above what one machine can send in a period, so every request is admitted. */
	private static final String CAPACITY = "1000000000";

	private static final String PERIOD_MS = "60000";

	private static final RedisScript<Long> TOKEN_BUCKET = RedisScript
		.of(new ClassPathResource("floor-token-bucket.lua"), Long.class);

	private static final RedisCallback<String> PING = RedisConnection::ping;

	private final FloorMode mode;

	private final StringRedisTemplate redis;

	private final FloorBuckets buckets = new FloorBuckets(Long.parseLong(CAPACITY), Long.parseLong(PERIOD_MS));

	FloorFilter(FloorMode mode, StringRedisTemplate redis) {
		this.mode = mode;
		this.redis = redis;
	}

	@Override
	public void doFilter(ServletRequest request, ServletResponse response, FilterChain chain)
			throws IOException, ServletException {
		switch (this.mode) {
			case OFF, HEADERS -> chain.doFilter(request, response);
			case PING -> {
				this.redis.execute(PING);
				chain.doFilter(request, response);
			}
			case MEMORY -> {
				String address = clientAddress((HttpServletRequest) request);
				if (this.buckets.take("tier:" + address) && this.buckets.take("backstop:" + address)) {
					chain.doFilter(request, response);
				}
				else {
					((HttpServletResponse) response).setStatus(429);
				}
			}
			case SCRIPT -> {
				String key = "floor:" + clientAddress((HttpServletRequest) request);
				Long admitted = this.redis.execute(TOKEN_BUCKET, List.of(key), CAPACITY, PERIOD_MS);
				if (admitted != null && admitted == 1L) {
					chain.doFilter(request, response);
				}
				else {
					((HttpServletResponse) response).setStatus(429);
				}
			}
		}
	}

	/**
	 * The first address of X-Forwarded-For when present (the benchmark sends it from
	 * loopback).
	 */
	private static String clientAddress(HttpServletRequest request) {
		String forwarded = request.getHeader("X-Forwarded-For");
		if (forwarded == null || forwarded.isBlank()) {
			return request.getRemoteAddr();
		}
		int comma = forwarded.indexOf(',');
		return ((comma < 0) ? forwarded : forwarded.substring(0, comma)).trim();
	}

}
