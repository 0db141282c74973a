package io.github.ratelimit.autoconfigure;

import java.util.List;

import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.util.function.SingletonSupplier;
import org.springframework.web.cors.reactive.CorsConfigurationSource;
import org.springframework.web.cors.reactive.CorsWebFilter;
import org.springframework.web.reactive.HandlerMapping;
import org.springframework.web.server.WebFilter;
import org.springframework.web.server.WebHandler;

import io.github.ratelimit.http.RateLimitHeaders;
import io.github.ratelimit.web.ExposedHeaders;
import io.github.ratelimit.web.reactive.ReactiveCors;

/**
 * The application's CORS configuration on WebFlux, as the rate-limit filters apply it to
 * their refusals: its {@code CorsWebFilter} beans, its {@link CorsConfigurationSource}
 * beans (Spring Security's {@code cors()} uses them) and the handler mappings. Looked up
 * once every bean exists, before the first request ({@link ReactiveCors#prepare()}).
 */
final class ReactiveCorsBeans {

	private ReactiveCorsBeans() {
	}

	static ReactiveCors cors(RateLimitHeaders headers, ListableBeanFactory beans) {
		return new ReactiveCors(ExposedHeaders.of(headers), SingletonSupplier
			.of(() -> beans.getBeanProvider(CorsWebFilter.class).orderedStream().map(WebFilter.class::cast).toList()),
				SingletonSupplier.of(() -> sources(beans)),
				SingletonSupplier.of(() -> beans.getBeanProvider(HandlerMapping.class).orderedStream().toList()));
	}

	// a handler's own configuration (static resources) is not the application's
	private static List<CorsConfigurationSource> sources(ListableBeanFactory beans) {
		return beans.getBeanProvider(CorsConfigurationSource.class)
			.orderedStream()
			.filter((source) -> !(source instanceof WebHandler))
			.toList();
	}

}
