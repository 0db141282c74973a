package io.github.ratelimit.behaviour;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.server.reactive.ServerHttpRequest;
import org.springframework.http.server.reactive.ServerHttpResponse;
import org.springframework.web.server.WebFilter;
import reactor.core.publisher.Mono;

/**
 * Records every request of a WebFlux app in a {@link WireLog}, from a {@code WebFilter}
 * ahead of every other (ours and Spring Security's), with the status of the response as
 * it is committed (after the error handlers, so a 404 counts as a 404). The twin of
 * {@link MvcWireTap}.
 */
@Configuration(proxyBeanMethods = false)
class WebFluxWireTap {

	@Bean
	WireLog wireLog() {
		return new WireLog();
	}

	@Bean
	@Order(Ordered.HIGHEST_PRECEDENCE)
	WebFilter wireTapFilter(WireLog log) {
		return (exchange, chain) -> {
			ServerHttpRequest request = exchange.getRequest();
			WireLog.Entry entry = log.arrived(request.getMethod().name(), request.getPath().value(),
					request.getHeaders().getFirst("X-Forwarded-For"));
			ServerHttpResponse response = exchange.getResponse();
			response.beforeCommit(() -> {
				HttpStatusCode status = response.getStatusCode();
				entry.completed((status != null) ? status.value() : 200);
				return Mono.empty();
			});
			return chain.filter(exchange);
		};
	}

}
