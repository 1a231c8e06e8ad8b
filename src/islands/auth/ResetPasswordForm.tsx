import { zodResolver } from "@hookform/resolvers/zod";
import { useEffect, useState } from "react";
import { useForm } from "react-hook-form";
import { type NewPasswordForm, newPasswordFormSchema } from "../../domain/schemas/auth";
import { apiRequest, errorMessage } from "../../lib/api";
import { useMutation, useQuery } from "../../lib/query";
import { Button } from "../../ui/button";
import { Form } from "../../ui/form";
import { Spinner } from "../../ui/spinner";
import { buttonClass } from "../../ui/styles";
import { toast } from "../../ui/toast";
import { AppProviders } from "../AppProviders";
import { NewPasswordFields } from "./NewPasswordFields";

function InvalidLink() {
  return (
    <div className="text-center">
      <h2 className="text-2xl font-bold">Invalid Reset Link</h2>
      <p className="mt-3 text-ink-soft">
        This password reset link is invalid or has expired. Reset links work once, for 1 hour.
      </p>
      <a href="/forgot-password" className={buttonClass("primary", "md", "mt-6")}>
        Request New Reset Link
      </a>
    </div>
  );
}

function ResetPassword() {
  const [token] = useState(() => new URLSearchParams(window.location.search).get("token") ?? "");
  const check = useQuery({
    queryKey: ["/api/validate-reset-token", token],
    queryFn: () => apiRequest<{ valid: boolean }>("POST", "/api/validate-reset-token", { token }),
    enabled: token !== "",
  });
  const valid = check.data?.valid === true;
  const form = useForm<NewPasswordForm>({
    resolver: zodResolver(newPasswordFormSchema),
    defaultValues: { password: "", confirmPassword: "" },
  });
  const reset = useMutation({
    mutationFn: ({ password }: NewPasswordForm) => apiRequest("POST", "/api/reset-password", { token, password }),
    onSuccess: () =>
      toast({ title: "Password Reset Successful", description: "You can now log in.", variant: "success" }),
    onError: (error) =>
      toast({
        title: "Reset Failed",
        description: errorMessage(error, "Failed to reset password"),
        variant: "destructive",
      }),
  });

  useEffect(() => {
    if (!token) {
      toast({
        title: "Invalid Reset Link",
        description: "The password reset link is invalid or missing",
        variant: "destructive",
      });
    } else if (check.isError || check.data?.valid === false) {
      toast({
        title: "Invalid or Expired Link",
        description: "This password reset link is invalid or has expired",
        variant: "destructive",
      });
    }
  }, [token, check.isError, check.data]);

  if (!token || check.isError || check.data?.valid === false) return <InvalidLink />;
  if (!valid) return <Spinner label="Validating reset link..." />;

  if (reset.isSuccess) {
    return (
      <div className="text-center">
        <h2 className="text-2xl font-bold">Password Reset Complete</h2>
        <p className="mt-3 text-ink-soft">Your password has been changed. Log in with your new password.</p>
        <a href="/login" className={buttonClass("primary", "md", "mt-6")}>
          Continue to Login
        </a>
      </div>
    );
  }

  return (
    <Form onSubmit={form.handleSubmit((values) => reset.mutate(values))} className="space-y-5">
      <NewPasswordFields form={form} />
      <Button type="submit" size="lg" className="w-full" busy={reset.isPending}>
        {reset.isPending ? "Resetting..." : "Reset Password"}
      </Button>
    </Form>
  );
}

export default function ResetPasswordForm() {
  return (
    <AppProviders>
      <ResetPassword />
    </AppProviders>
  );
}
