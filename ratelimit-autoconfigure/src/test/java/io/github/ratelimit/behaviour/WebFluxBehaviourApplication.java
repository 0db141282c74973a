package io.github.ratelimit.behaviour;

import java.security.Principal;
import java.util.Map;

import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.http.client.ReactorResourceFactory;
import org.springframework.security.config.Customizer;
import org.springframework.security.config.web.server.ServerHttpSecurity;
import org.springframework.security.core.userdetails.MapReactiveUserDetailsService;
import org.springframework.security.web.server.SecurityWebFilterChain;
import org.springframework.security.web.server.context.NoOpServerSecurityContextRepository;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.reactive.function.server.RouterFunction;
import org.springframework.web.reactive.function.server.RouterFunctions;
import org.springframework.web.reactive.function.server.ServerResponse;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.publisher.Mono;

import io.github.ratelimit.annotation.RateLimited;

/**
 * The behavioural suite's app on WebFlux: the endpoints of
 * {@link MvcBehaviourApplication}, one for one, and the same security.
 */
@SpringBootConfiguration(proxyBeanMethods = false)
@EnableAutoConfiguration
@Import({ WebFluxBehaviourApplication.Api.class, FailOnDemandBodyWriter.class })
public class WebFluxBehaviourApplication {

	/**
	 * Event loops of this app's own: Reactor Netty's global ones are disposed when any
	 * app closes, which would stop the other apps a test class runs in the same JVM (the
	 * failure-mode tests start a second one).
	 */
	@Bean
	ReactorResourceFactory reactorResourceFactory() {
		ReactorResourceFactory factory = new ReactorResourceFactory();
		factory.setUseGlobalResources(false);
		return factory;
	}

	@Bean
	SecurityWebFilterChain securityWebFilterChain(ServerHttpSecurity http) {
		// stateless, as an HTTP API: no WebSession per request
		return http.authorizeExchange((exchanges) -> exchanges.anyExchange().permitAll())
			.securityContextRepository(NoOpServerSecurityContextRepository.getInstance())
			.httpBasic(Customizer.withDefaults())
			.csrf((csrf) -> csrf.disable())
			// applies a CorsConfigurationSource bean, when there is one (the CORS suite)
			.cors(Customizer.withDefaults())
			.build();
	}

	@Bean
	MapReactiveUserDetailsService users() {
		return new MapReactiveUserDetailsService(
				java.util.Arrays.stream(BehaviourUsers.values()).map(BehaviourUsers::toUserDetails).toList());
	}

	@Bean
	RouterFunction<ServerResponse> functionalRoutes() {
		return RouterFunctions.route()
			.GET("/fn/export", (request) -> ServerResponse.ok().bodyValue(Map.of("export", "fn")))
			.withAttribute(RateLimited.GROUP_ATTRIBUTE, "export")
			.withAttribute(RateLimited.COST_ATTRIBUTE, 5)
			.GET("/fn/ping", (request) -> ServerResponse.ok().bodyValue("pong"))
			.withAttribute(RateLimited.EXEMPT_ATTRIBUTE, true)
			.GET("/fn/repos/{repo}/forks", (request) -> ServerResponse.ok().bodyValue(Map.of("forks", 0)))
			.withAttribute(RateLimited.LIMIT_ATTRIBUTE, "2/1h")
			.withAttribute(RateLimited.PER_ATTRIBUTE, "repo")
			.build();
	}

	@RestController
	static class Api {

		@GetMapping("/api/hello")
		Mono<Map<String, String>> hello() {
			return Mono.just(Map.of("hello", "world"));
		}

		@GetMapping("/api/whoami")
		Mono<String> whoami(ServerWebExchange exchange) {
			return exchange.getPrincipal().map(Principal::getName).defaultIfEmpty("anonymous");
		}

		@GetMapping("/api/reports/{id}")
		Mono<Map<String, String>> report(@PathVariable String id) {
			return Mono.just(Map.of("report", id));
		}

		@GetMapping("/api/admin/stats")
		Mono<Map<String, Integer>> adminStats() {
			return Mono.just(Map.of("users", 1));
		}

		@GetMapping("/api/burst")
		Mono<String> burst() {
			return Mono.just("ok");
		}

		@RateLimited(group = "export", cost = 5)
		@GetMapping("/api/annotated/export")
		Mono<Map<String, String>> annotatedExport() {
			return Mono.just(Map.of("export", "annotated"));
		}

		@RateLimited(exempt = true)
		@GetMapping("/api/annotated/ping")
		Mono<String> annotatedPing() {
			return Mono.just("pong");
		}

		@GetMapping("/api/repos/{repo}/issues")
		Mono<Map<String, String>> issues(@PathVariable String repo) {
			return Mono.just(Map.of("repo", repo));
		}

		/** Starring counts per repository of the path (the key {@code repo}). */
		@RateLimited(limit = "2/1h", per = "repo")
		@GetMapping("/api/repos/{repo}/stars")
		Mono<Map<String, String>> stars(@PathVariable String repo) {
			return Mono.just(Map.of("starred", repo));
		}

		@GetMapping("/api/thread")
		Mono<String> thread() {
			return Mono.fromSupplier(() -> Thread.currentThread().getName());
		}

		/**
		 * A mistake on purpose: blocks whatever thread runs it, which BlockHound must
		 * catch.
		 */
		@GetMapping("/api/blocking")
		Mono<String> blocking() {
			return Mono.fromCallable(() -> {
				Thread.sleep(1);
				return "slept";
			});
		}

	}

}
