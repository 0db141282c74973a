package com.example.login;

import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.annotation.Bean;
import org.springframework.security.config.Customizer;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.userdetails.User;
import org.springframework.security.core.userdetails.UserDetailsService;
import org.springframework.security.crypto.bcrypt.BCryptPasswordEncoder;
import org.springframework.security.crypto.password.PasswordEncoder;
import org.springframework.security.provisioning.InMemoryUserDetailsManager;
import org.springframework.security.web.SecurityFilterChain;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

@SpringBootApplication
@RestController
public class LoginApplication {

	public static void main(String[] args) {
		SpringApplication.run(LoginApplication.class, args);
	}

	@Bean
	SecurityFilterChain security(HttpSecurity http) throws Exception {
		http.authorizeHttpRequests((requests) -> requests.anyRequest().authenticated())
			.httpBasic(Customizer.withDefaults())
			.csrf((csrf) -> csrf.disable());
		return http.build();
	}

	@Bean
	CountingBCrypt passwordEncoder() {
		return new CountingBCrypt();
	}

	@Bean
	UserDetailsService users(PasswordEncoder passwordEncoder) {
		return new InMemoryUserDetailsManager(
				User.withUsername("alice").password(passwordEncoder.encode("secret")).authorities("USER").build(),
				User.withUsername("bob").password(passwordEncoder.encode("bob-secret")).authorities("USER").build());
	}

	@GetMapping("/api/whoami")
	Map<String, Object> whoami(Authentication authentication) {
		return Map.of("name", authentication.getName());
	}

	/** BCrypt that counts the passwords it checked: the work login protection spares. */
	static class CountingBCrypt implements PasswordEncoder {

		private final PasswordEncoder bcrypt = new BCryptPasswordEncoder();

		private final AtomicInteger checks = new AtomicInteger();

		@Override
		public String encode(CharSequence rawPassword) {
			return this.bcrypt.encode(rawPassword);
		}

		@Override
		public boolean matches(CharSequence rawPassword, String encodedPassword) {
			this.checks.incrementAndGet();
			return this.bcrypt.matches(rawPassword, encodedPassword);
		}

		int checks() {
			return this.checks.get();
		}

	}

}
