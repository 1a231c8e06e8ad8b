import { zodResolver } from "@hookform/resolvers/zod";
import { useEffect } from "react";
import { useForm } from "react-hook-form";
import { type LoginInput, loginSchema } from "../../domain/schemas/auth";
import type { PublicUser } from "../../domain/user";
import { apiRequest, errorMessage } from "../../lib/api";
import { useMutation } from "../../lib/query";
import { $user, clearUserStores, safeNextPath } from "../../lib/stores";
import { Button } from "../../ui/button";
import { Form, fieldProps } from "../../ui/form";
import { Field } from "../../ui/input";
import { toast } from "../../ui/toast";
import { AppProviders } from "../AppProviders";

function LoginFormFields() {
  // Whoever reaches the login page is signed out (logout lands here): drop the display mirror.
  useEffect(clearUserStores, []);
  const form = useForm<LoginInput>({
    resolver: zodResolver(loginSchema),
    defaultValues: { username: "", password: "" },
  });
  const login = useMutation({
    mutationFn: (values: LoginInput) => apiRequest<PublicUser>("POST", "/api/login", values),
    onSuccess: (user) => {
      $user.set(user);
      toast({ title: "Login Successful", description: "Welcome back!", variant: "success" });
      const next = safeNextPath(new URLSearchParams(window.location.search).get("next"));
      window.location.assign(next ?? (user.isAdmin ? "/admin" : "/dashboard"));
    },
    onError: (error) =>
      toast({ title: "Login Failed", description: errorMessage(error, "Invalid credentials"), variant: "destructive" }),
  });

  return (
    <Form onSubmit={form.handleSubmit((values) => login.mutate(values))} className="space-y-5">
      <Field label="Username" autoComplete="username" autoFocus {...fieldProps(form, "username")} />
      <Field label="Password" type="password" autoComplete="current-password" {...fieldProps(form, "password")} />
      <Button type="submit" size="lg" className="w-full" busy={login.isPending || login.isSuccess}>
        {login.isPending ? "Logging in..." : "Login"}
      </Button>
      <div className="flex flex-col items-center gap-2 text-sm">
        <a href="/forgot-password" className="font-medium text-brand-700 hover:underline">
          Forgot your password?
        </a>
        <p className="text-ink-soft">
          New here?{" "}
          <a href="/survey" className="font-medium text-brand-700 hover:underline">
            Take the survey to get started
          </a>
        </p>
      </div>
    </Form>
  );
}

export default function LoginForm() {
  return (
    <AppProviders>
      <LoginFormFields />
    </AppProviders>
  );
}
