package io.github.ratelimit.openapi;

import java.util.Map;

import org.springframework.boot.SpringBootConfiguration;
import org.springframework.context.annotation.Import;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RestController;

import io.github.ratelimit.annotation.RateLimited;
import io.github.ratelimit.test.AutoConfigurationWithoutSecurity;

/**
 * A small API with springdoc, on either stack (its controller serves both): a limited
 * report, a path excluded by configuration and an exempt handler. Spring Security is on
 * the test classpath but not part of this API.
 */
@SpringBootConfiguration(proxyBeanMethods = false)
@AutoConfigurationWithoutSecurity
@Import(OpenApiDocumentApplication.Api.class)
class OpenApiDocumentApplication {

	/** The limits of the app: a tier per caller kind, a group for the reports. */
	static final String[] PROPERTIES = { "--ratelimit.groups.reports.paths=/v1/reports/**",
			"--ratelimit.tiers.anonymous.ip.default=100/1m", "--ratelimit.tiers.anonymous.ip.reports=10/1m",
			"--ratelimit.tiers.premium.user.reports=100/1h", "--ratelimit.ip.default=600/1m",
			"--ratelimit.exclude-paths=/internal/**",
			// built at startup, on a thread of springdoc's: building it on the first
			// request
			// would read classes on an event loop of WebFlux
			"--springdoc.pre-loading-enabled=true" };

	@RestController
	static class Api {

		@RateLimited(cost = 5, limit = "60/1h")
		@GetMapping("/v1/reports/{id}")
		Map<String, Object> report(@PathVariable String id) {
			return Map.of("id", id);
		}

		@GetMapping("/internal/status")
		Map<String, Object> status() {
			return Map.of("up", true);
		}

		@RateLimited(exempt = true)
		@GetMapping("/v1/ping")
		Map<String, Object> ping() {
			return Map.of("pong", true);
		}

	}

}
