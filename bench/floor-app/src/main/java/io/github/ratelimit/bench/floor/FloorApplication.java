package io.github.ratelimit.bench.floor;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.tomcat.TomcatContextCustomizer;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.core.Ordered;
import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * The floor of the HTTP load comparison: the benchmark's endpoints behind a bare filter
 * that makes at most one Redis trip per request ({@code floor.mode=off|headers|ping|script|memory}, see
 * {@link FloorFilter}). Redis is {@code REDIS_URL} (required: the benchmark passes its
 * own server). See bench/README.md.
 */
@SpringBootApplication
public class FloorApplication {

	public static void main(String[] args) {
		SpringApplication.run(FloorApplication.class, args);
	}

	@Bean
	FilterRegistrationBean<FloorFilter> floorFilter(@Value("${floor.mode:off}") String mode,
			StringRedisTemplate redis) {
		FilterRegistrationBean<FloorFilter> registration = new FilterRegistrationBean<>(
				new FloorFilter(FloorMode.of(mode), redis));
		// first, where a rate limiter sits
		registration.setOrder(Ordered.HIGHEST_PRECEDENCE + 10);
		return registration;
	}

	@Bean
	TomcatContextCustomizer floorHeaders(@Value("${floor.mode:off}") String mode) {
		return (context) -> {
			if (FloorMode.of(mode) == FloorMode.HEADERS) {
				context.getPipeline().addValve(new FloorHeadersValve());
			}
		};
	}

}
