import { zodResolver } from "@hookform/resolvers/zod";
import { useForm } from "react-hook-form";
import { type ForgotPasswordInput, forgotPasswordSchema } from "../../domain/schemas/auth";
import { apiRequest, errorMessage } from "../../lib/api";
import { useMutation } from "../../lib/query";
import { Button } from "../../ui/button";
import { Form } from "../../ui/form";
import { Field } from "../../ui/input";
import { buttonClass } from "../../ui/styles";
import { toast } from "../../ui/toast";
import { AppProviders } from "../AppProviders";

function ForgotPassword() {
  const form = useForm<ForgotPasswordInput>({
    resolver: zodResolver(forgotPasswordSchema),
    defaultValues: { email: "" },
  });
  const send = useMutation({
    mutationFn: (values: ForgotPasswordInput) => apiRequest("POST", "/api/forgot-password", values),
    onSuccess: () =>
      toast({ title: "Reset Email Sent", description: "Check your inbox for the reset link.", variant: "success" }),
    onError: (error) =>
      toast({ title: "Error", description: errorMessage(error, "Failed to send reset email"), variant: "destructive" }),
  });

  if (send.isSuccess) {
    return (
      <div className="text-center">
        <h2 className="text-2xl font-bold">Check Your Email</h2>
        <p className="mt-3 text-ink-soft">
          If an account exists for <strong className="text-ink">{form.getValues("email")}</strong>, we sent it a link to
          reset the password. The link expires in 1 hour.
        </p>
        <div className="mt-6 flex flex-col gap-3">
          <Button variant="secondary" onClick={() => send.reset()}>
            Try Again
          </Button>
          <a href="/login" className={buttonClass("primary")}>
            Back to Login
          </a>
        </div>
      </div>
    );
  }

  return (
    <Form onSubmit={form.handleSubmit((values) => send.mutate(values))} className="space-y-5">
      <p className="text-ink-soft">Enter the e-mail address of your account and we will send you a reset link.</p>
      <Field
        label="Email"
        type="email"
        autoComplete="email"
        autoFocus
        error={form.formState.errors.email?.message}
        {...form.register("email")}
      />
      <Button type="submit" size="lg" className="w-full" busy={send.isPending}>
        {send.isPending ? "Sending..." : "Send Reset Email"}
      </Button>
      <p className="text-center text-sm">
        <a href="/login" className="font-medium text-brand-700 hover:underline">
          Back to Login
        </a>
      </p>
    </Form>
  );
}

export default function ForgotPasswordForm() {
  return (
    <AppProviders>
      <ForgotPassword />
    </AppProviders>
  );
}
