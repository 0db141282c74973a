package io.github.ratelimit.behaviour;

import java.io.IOException;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Records every request of a Spring MVC app in a {@link WireLog}, from a filter ahead of
 * every other (ours and Spring Security's), with the status the client finally got. The
 * twin of {@link WebFluxWireTap}.
 */
@Configuration(proxyBeanMethods = false)
class MvcWireTap {

	@Bean
	WireLog wireLog() {
		return new WireLog();
	}

	@Bean
	FilterRegistrationBean<OncePerRequestFilter> wireTapFilter(WireLog log) {
		FilterRegistrationBean<OncePerRequestFilter> registration = new FilterRegistrationBean<>(
				new OncePerRequestFilter() {

					@Override
					protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response,
							FilterChain chain) throws ServletException, IOException {
						WireLog.Entry entry = log.arrived(request.getMethod(), request.getRequestURI(),
								request.getHeader("X-Forwarded-For"));
						try {
							chain.doFilter(request, response);
						}
						finally {
							entry.completed(response.getStatus());
						}
					}

				});
		registration.setOrder(Ordered.HIGHEST_PRECEDENCE);
		return registration;
	}

}
