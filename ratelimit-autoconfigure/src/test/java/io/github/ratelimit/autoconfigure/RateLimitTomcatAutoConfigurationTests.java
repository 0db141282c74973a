package io.github.ratelimit.autoconfigure;

import org.apache.catalina.Valve;
import org.apache.catalina.core.StandardContext;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ReactiveWebApplicationContextRunner;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;
import org.springframework.boot.tomcat.TomcatContextCustomizer;
import org.springframework.context.ApplicationContext;

import io.github.ratelimit.web.servlet.RefusedBodyValve;
import io.github.ratelimit.web.servlet.ResponseHeadersValve;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * On Boot's embedded Tomcat the refusals' valve and the response headers' valve are added
 * to the application's context; without Tomcat, or on WebFlux, nothing is.
 */
class RateLimitTomcatAutoConfigurationTests {

	@Test
	void onTomcatTheRefusedBodyValveIsAddedToTheContext() {
		new WebApplicationContextRunner().withConfiguration(AutoConfigurations.of(RateLimitAutoConfiguration.class))
			.run((context) -> assertThat(valvesAddedBy(context, "rateLimitRefusedBodyValve"))
				.hasAtLeastOneElementOfType(RefusedBodyValve.class));
	}

	@Test
	void onTomcatTheResponseHeadersValveIsAddedToTheContext() {
		new WebApplicationContextRunner().withConfiguration(AutoConfigurations.of(RateLimitAutoConfiguration.class))
			.run((context) -> assertThat(valvesAddedBy(context, "rateLimitResponseHeadersValve"))
				.hasAtLeastOneElementOfType(ResponseHeadersValve.class));
	}

	@Test
	void withoutTomcatThereIsNoValve() {
		new WebApplicationContextRunner().withConfiguration(AutoConfigurations.of(RateLimitAutoConfiguration.class))
			.withClassLoader(new FilteredClassLoader("org.apache.catalina"))
			.run((context) -> assertThat(context).hasNotFailed().doesNotHaveBean(TomcatContextCustomizer.class));
	}

	@Test
	void onWebFluxThereIsNoValve() {
		new ReactiveWebApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(RateLimitAutoConfiguration.class))
			.run((context) -> assertThat(context).hasNotFailed().doesNotHaveBean(TomcatContextCustomizer.class));
	}

	/**
	 * The valves a customizer bean of the context adds to a Tomcat context of its own.
	 */
	private static Valve[] valvesAddedBy(ApplicationContext context, String customizerName) {
		StandardContext tomcatContext = new StandardContext();
		context.getBean(customizerName, TomcatContextCustomizer.class).customize(tomcatContext);
		return tomcatContext.getPipeline().getValves();
	}

}
