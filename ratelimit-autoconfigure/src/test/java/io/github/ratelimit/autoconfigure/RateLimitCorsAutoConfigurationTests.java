package io.github.ratelimit.autoconfigure;

import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ReactiveWebApplicationContextRunner;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Lazy;
import org.springframework.web.cors.CorsConfiguration;
import org.springframework.web.cors.reactive.CorsWebFilter;
import org.springframework.web.cors.reactive.UrlBasedCorsConfigurationSource;

import io.github.ratelimit.http.RateLimitHeaders;
import io.github.ratelimit.web.ExposedHeaders;
import io.github.ratelimit.web.reactive.ReactiveCors;
import io.github.ratelimit.web.servlet.ServletCors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The CORS support of the filters: one per stack, which a user may replace.
 */
class RateLimitCorsAutoConfigurationTests {

	private final WebApplicationContextRunner servlet = new WebApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(RateLimitAutoConfiguration.class));

	private final ReactiveWebApplicationContextRunner reactive = new ReactiveWebApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(RateLimitAutoConfiguration.class));

	@Test
	void servletAppsGetTheServletCorsSupportOnly() {
		this.servlet
			.run((context) -> assertThat(context).hasSingleBean(ServletCors.class).doesNotHaveBean(ReactiveCors.class));
	}

	@Test
	void reactiveAppsGetTheReactiveCorsSupportOnly() {
		this.reactive
			.run((context) -> assertThat(context).hasSingleBean(ReactiveCors.class).doesNotHaveBean(ServletCors.class));
	}

	@Test
	void backsOffWhenUserDefinesServletCors() {
		this.servlet.withUserConfiguration(UserCors.class)
			.run((context) -> assertThat(context).hasSingleBean(ServletCors.class)
				.getBean(ServletCors.class)
				.isSameAs(context.getBean("userServletCors")));
	}

	@Test
	void backsOffWhenUserDefinesReactiveCors() {
		this.reactive.withUserConfiguration(UserCors.class)
			.run((context) -> assertThat(context).hasSingleBean(ReactiveCors.class)
				.getBean(ReactiveCors.class)
				.isSameAs(context.getBean("userReactiveCors")));
	}

	@Test
	void reactiveAppsLookUpTheApplicationsCorsBeansBeforeTheFirstRequest() {
		// a lazy bean exists after the start only if something asked for it: the first
		// cross-origin refusals, on event loops, must not be the ones to look it up
		this.reactive.withUserConfiguration(LazyApplicationCors.class)
			.run((context) -> assertThat(context.getBeanFactory().containsSingleton("applicationCorsFilter"))
				.as("the application's CorsWebFilter was looked up at the start")
				.isTrue());
	}

	@Test
	void reactiveAppsLeaveTheApplicationsLazyBeansAloneWithoutTheirCorsSupport() {
		this.reactive.withUserConfiguration(LazyApplicationCors.class, UserCors.class)
			.run((context) -> assertThat(context.getBeanFactory().containsSingleton("applicationCorsFilter"))
				.isFalse());
	}

	@Configuration(proxyBeanMethods = false)
	static class LazyApplicationCors {

		@Bean
		@Lazy
		CorsWebFilter applicationCorsFilter() {
			UrlBasedCorsConfigurationSource source = new UrlBasedCorsConfigurationSource();
			source.registerCorsConfiguration("/**", new CorsConfiguration().applyPermitDefaultValues());
			return new CorsWebFilter(source);
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class UserCors {

		@Bean
		ServletCors userServletCors() {
			return ServletCors.exposingOnly(ExposedHeaders.of(RateLimitHeaders.of()));
		}

		@Bean
		ReactiveCors userReactiveCors() {
			return ReactiveCors.exposingOnly(ExposedHeaders.of(RateLimitHeaders.of()));
		}

	}

}
