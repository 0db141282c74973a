package com.example.webflux;

import java.util.Map;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.annotation.Bean;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.reactive.function.server.RouterFunction;
import org.springframework.web.reactive.function.server.RouterFunctions;
import org.springframework.web.reactive.function.server.ServerResponse;
import reactor.core.publisher.Mono;

import io.github.ratelimit.annotation.RateLimited;

@SpringBootApplication
@RestController
public class WebFluxApplication {

	public static void main(String[] args) {
		SpringApplication.run(WebFluxApplication.class, args);
	}

	@GetMapping("/api/hello")
	Mono<Map<String, String>> hello() {
		return Mono.just(Map.of("hello", "world"));
	}

	@Bean
	RouterFunction<ServerResponse> reports() {
		return RouterFunctions.route()
			.GET("/api/report", (request) -> ServerResponse.ok().bodyValue(Map.of("report", "ready")))
			.withAttribute(RateLimited.COST_ATTRIBUTE, 3)
			.build();
	}

}
