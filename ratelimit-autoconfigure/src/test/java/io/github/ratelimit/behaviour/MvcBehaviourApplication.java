package io.github.ratelimit.behaviour;

import java.security.Principal;
import java.util.Map;

import org.jspecify.annotations.Nullable;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.security.config.Customizer;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.config.http.SessionCreationPolicy;
import org.springframework.security.provisioning.InMemoryUserDetailsManager;
import org.springframework.security.web.SecurityFilterChain;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.servlet.function.RouterFunction;
import org.springframework.web.servlet.function.RouterFunctions;
import org.springframework.web.servlet.function.ServerResponse;

import io.github.ratelimit.annotation.RateLimited;

/**
 * The behavioural suite's app on Spring MVC: the endpoints of
 * {@link WebFluxBehaviourApplication}, one for one, and the same security.
 */
@SpringBootConfiguration(proxyBeanMethods = false)
@EnableAutoConfiguration
@Import({ MvcBehaviourApplication.Api.class, FailOnDemandBodyWriter.class })
public class MvcBehaviourApplication {

	@Bean
	SecurityFilterChain securityFilterChain(HttpSecurity http) throws Exception {
		// stateless, as an HTTP API: no HttpSession per request
		return http.authorizeHttpRequests((requests) -> requests.anyRequest().permitAll())
			.sessionManagement((sessions) -> sessions.sessionCreationPolicy(SessionCreationPolicy.STATELESS))
			.httpBasic(Customizer.withDefaults())
			.csrf((csrf) -> csrf.disable())
			.build();
	}

	@Bean
	InMemoryUserDetailsManager users() {
		return new InMemoryUserDetailsManager(
				java.util.Arrays.stream(BehaviourUsers.values()).map(BehaviourUsers::toUserDetails).toList());
	}

	@Bean
	RouterFunction<ServerResponse> functionalRoutes() {
		return RouterFunctions.route()
			.GET("/fn/export", (request) -> ServerResponse.ok().body(Map.of("export", "fn")))
			.withAttribute(RateLimited.GROUP_ATTRIBUTE, "export")
			.withAttribute(RateLimited.COST_ATTRIBUTE, 5)
			.GET("/fn/ping", (request) -> ServerResponse.ok().body("pong"))
			.withAttribute(RateLimited.EXEMPT_ATTRIBUTE, true)
			.GET("/fn/repos/{repo}/forks", (request) -> ServerResponse.ok().body(Map.of("forks", 0)))
			.withAttribute(RateLimited.LIMIT_ATTRIBUTE, "2/1h")
			.withAttribute(RateLimited.PER_ATTRIBUTE, "repo")
			.build();
	}

	@RestController
	static class Api {

		@GetMapping("/api/hello")
		Map<String, String> hello() {
			return Map.of("hello", "world");
		}

		@GetMapping("/api/whoami")
		String whoami(@Nullable Principal principal) {
			return (principal != null) ? principal.getName() : "anonymous";
		}

		@GetMapping("/api/reports/{id}")
		Map<String, String> report(@PathVariable String id) {
			return Map.of("report", id);
		}

		@GetMapping("/api/admin/stats")
		Map<String, Integer> adminStats() {
			return Map.of("users", 1);
		}

		@GetMapping("/api/burst")
		String burst() {
			return "ok";
		}

		@RateLimited(group = "export", cost = 5)
		@GetMapping("/api/annotated/export")
		Map<String, String> annotatedExport() {
			return Map.of("export", "annotated");
		}

		@RateLimited(exempt = true)
		@GetMapping("/api/annotated/ping")
		String annotatedPing() {
			return "pong";
		}

		@GetMapping("/api/repos/{repo}/issues")
		Map<String, String> issues(@PathVariable String repo) {
			return Map.of("repo", repo);
		}

		/** Starring counts per repository of the path (the key {@code repo}). */
		@RateLimited(limit = "2/1h", per = "repo")
		@GetMapping("/api/repos/{repo}/stars")
		Map<String, String> stars(@PathVariable String repo) {
			return Map.of("starred", repo);
		}

		@GetMapping("/api/thread")
		String thread() {
			return Thread.currentThread().getName();
		}

		/** Blocking is what a servlet handler may do; the WebFlux twin must not. */
		@GetMapping("/api/blocking")
		String blocking() throws InterruptedException {
			Thread.sleep(1);
			return "slept";
		}

	}

}
